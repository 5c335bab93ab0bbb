import { describe, expect, it } from "vitest";
import { createUserSchema } from "./admin.schemas";

describe("createUserSchema", () => {
  it("asks an admin for the person's name, not for 'your name'", () => {
    const result = createUserSchema.safeParse({
      name: " ",
      email: "kj@example.test",
      role: "user",
      passwordMode: "invite",
    });
    expect(result.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["name", "Enter the person's name"],
    ]);
  });
});
