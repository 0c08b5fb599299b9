import { describe, expect, it } from "vitest";
import { deliveryErrorText } from "@/lib/webhooks/delivery-error-text";

describe("deliveryErrorText", () => {
  it("puts Node's error codes in words, keeping the receiver's address", () => {
    expect(deliveryErrorText("connect ECONNREFUSED 127.0.0.1:9")).toBe("Connection refused (127.0.0.1:9)");
    expect(deliveryErrorText("getaddrinfo ENOTFOUND hooks.example.com")).toBe(
      "Host name not found (hooks.example.com)",
    );
    expect(deliveryErrorText("ECONNRESET: socket hang up")).toBe("Connection reset by the receiver");
    expect(deliveryErrorText("CERT_HAS_EXPIRED: certificate has expired")).toBe(
      "The receiver's TLS certificate has expired",
    );
  });

  it("keeps texts that are already words", () => {
    expect(deliveryErrorText("HTTP 500")).toBe("HTTP 500");
    expect(deliveryErrorText("Timed out after 10000 ms")).toBe("Timed out after 10000 ms");
    expect(deliveryErrorText("Subscription is no longer active")).toBe("Subscription is no longer active");
  });
});
