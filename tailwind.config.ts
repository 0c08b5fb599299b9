import type { Config } from "tailwindcss";

export default {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        brand: { 50: "#eef5ff", 100: "#d9e8ff", 500: "#2f6fed", 600: "#1f57c7", 700: "#1a479f" },
      },
    },
  },
} satisfies Config;
