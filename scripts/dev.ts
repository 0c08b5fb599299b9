import { launch } from "./launch";

await launch("dev");
