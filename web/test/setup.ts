import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";
import { loadErrorSentences } from "../lib/api-error";

// Vitest runs without globals, so testing-library cannot register its own cleanup: unmount after every test.
afterEach(() => cleanup());

// The app loads the error sentences before any ApiError is made (lib/api-error.ts); tests that stub the auth client make them directly.
await loadErrorSentences();
