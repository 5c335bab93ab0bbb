import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Avatar } from "./avatar";

const initialsOf = (name: string) =>
  render(<Avatar name={name} />)
    .container.querySelector("[data-initials]")
    ?.getAttribute("data-initials");

describe("Avatar", () => {
  it("takes whole characters for initials: an emoji or a combined letter is not split", () => {
    expect(initialsOf("🚀 Rocket")).toBe("🚀R");
    expect(initialsOf("👩‍💻 Dev")).toBe("👩‍💻D");
    expect(initialsOf("e\u0301lise Martin")).toBe("E\u0301M");
    expect(initialsOf("Ada Lovelace")).toBe("AL");
    expect(initialsOf("  ")).toBe("?");
  });
});
