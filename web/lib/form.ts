import {
  useCallback,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  type BaseSyntheticEvent,
  type ChangeEvent,
  type FocusEvent,
} from "react";
import { ApiError, errorMessage } from "./api-error";

/**
 * Where a server error goes: a field name, or a field and the message to show there, or only a message
 * (shown above the form).
 */
export type ServerErrorRule<F extends string> = F | { field?: F; message?: string };

/**
 * Server errors that belong on a field, looked up in this order: the error's exact `code`, a prefix key
 * ending in `*` (`"PASSWORD_*"`), the HTTP status (`"422"`), then `"*"` for every other ApiError.
 * Anything that matches nothing (and every network failure) is shown above the form.
 */
export type ServerErrorMap<F extends string> = Partial<Record<string, ServerErrorRule<F>>>;

export type ServerErrorTarget<F extends string> = { field?: F; message: string };

function findRule<F extends string>(error: ApiError, map: ServerErrorMap<F>): ServerErrorRule<F> | undefined {
  const code = error.code;
  if (code && map[code] !== undefined) return map[code];
  if (code) {
    const prefix = Object.keys(map).find(
      (key) => key.length > 1 && key.endsWith("*") && code.startsWith(key.slice(0, -1)),
    );
    if (prefix) return map[prefix];
  }
  return map[String(error.status)] ?? map["*"];
}

/** Pure: decides which field (if any) a server error belongs to and what it says there. */
export function serverErrorTarget<F extends string>(error: unknown, map: ServerErrorMap<F> = {}): ServerErrorTarget<F> {
  const message = errorMessage(error);
  if (!(error instanceof ApiError)) return { message };
  const rule = findRule(error, map);
  if (rule === undefined) return { message };
  if (typeof rule === "string") return { field: rule, message };
  return { field: rule.field, message: rule.message ?? message };
}

// ---------------------------------------------------------------------------------------------------------
// Types. Any Standard Schema validates a form (zod classic or zod/mini); field names are dotted paths.

type Issue = {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
};
type ValidationResult<Output> =
  { readonly value: Output; readonly issues?: undefined } | { readonly issues: ReadonlyArray<Issue> };

/** The part of the Standard Schema interface (https://standardschema.dev) the form uses. */
export type FormSchema<Input = unknown, Output = Input> = {
  readonly "~standard": {
    readonly validate: (value: unknown) => ValidationResult<Output> | Promise<ValidationResult<Output>>;
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
};
export type InputOf<S extends FormSchema> = NonNullable<S["~standard"]["types"]>["input"];
export type OutputOf<S extends FormSchema> = NonNullable<S["~standard"]["types"]>["output"];

type Leaf = string | number | boolean | bigint | symbol | null | undefined | Date | File | Blob;
/** Every field name of a form's values: `"name"`, `"customer.email"`, `"items.0.sku"`. */
export type FieldPath<T> = T extends Leaf
  ? never
  : T extends ReadonlyArray<infer E>
    ? `${number}` | `${number}.${FieldPath<E>}`
    : { [K in keyof T & string]: K | `${K}.${FieldPath<NonNullable<T[K]>>}` }[keyof T & string];
/** The value at a field name. */
export type FieldPathValue<T, P extends string> = P extends `${infer K}.${infer Rest}`
  ? K extends keyof T
    ? FieldPathValue<NonNullable<T[K]>, Rest>
    : T extends ReadonlyArray<infer E>
      ? FieldPathValue<E, Rest>
      : never
  : P extends keyof T
    ? T[P]
    : T extends ReadonlyArray<infer E>
      ? E
      : never;

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;

export type RegisterOptions = {
  /** Read the control as a number (`input.valueAsNumber`, NaN when empty), for `type="number"`. */
  valueAsNumber?: boolean;
};

/** What `register` returns, to spread onto an `<input>`, `<select>` or `<textarea>` (or each radio of a group). */
export type FieldRegistration = {
  name: string;
  ref: (element: Control | null) => void | (() => void);
  onChange: (event: ChangeEvent<Control>) => void;
  onBlur: (event: FocusEvent<Control>) => void;
};

export type FieldBinding = FieldRegistration & { error?: string };

export type FieldState = { invalid: boolean; error?: { message: string }; isDirty: boolean; isTouched: boolean };

export type FormState<F extends string> = {
  /** Errors shown now, by field name. */
  errors: Partial<Record<F, { message: string }>>;
  isSubmitting: boolean;
  isSubmitted: boolean;
  submitCount: number;
  /** The values differ from the defaults (or from the values of the last `reset`). */
  isDirty: boolean;
};

/** Defaults may leave out what has no sensible start (a radio group with nothing chosen). */
export type DefaultValues<T> = T extends Leaf
  ? T
  : T extends ReadonlyArray<unknown>
    ? T
    : { [K in keyof T]?: DefaultValues<T[K]> };

export type ZodFormOptions<S extends FormSchema> = {
  defaultValues: DefaultValues<InputOf<S>>;
  /** Server errors (by code or status) that are shown on a field rather than above the form. */
  serverErrors?: ServerErrorMap<FieldPath<InputOf<S>>>;
};

export type ZodForm<S extends FormSchema> = {
  /** `register` plus the field's error, for `<TextField {...form.field("email")} />`. */
  field(name: FieldPath<InputOf<S>>, options?: RegisterOptions): FieldBinding;
  /** Binds a control that shows its error elsewhere (or none): a checkbox, a select in a toolbar. */
  register(name: FieldPath<InputOf<S>>, options?: RegisterOptions): FieldRegistration;
  /** The error above the form (a server answer that belongs to no field), or undefined. */
  formError: string | undefined;
  formState: FormState<FieldPath<InputOf<S>>>;
  /** Puts an error (an ApiError, anything thrown, or a message) on `field`, on its field by `serverErrors`, or above the form. */
  setServerError(error: unknown, field?: FieldPath<InputOf<S>>): void;
  /**
   * The form's submit handler: validates with the schema, then runs `onValid`; whatever `onValid` throws is
   * shown on its field or above the form, so pages need no try/catch. `formState.isSubmitting` is true meanwhile.
   */
  submit(onValid: (data: OutputOf<S>) => unknown): (event?: BaseSyntheticEvent) => Promise<void>;
  /** The current value of one field, of several (an array), or all values. Re-renders as they change. */
  watch: {
    (): InputOf<S>;
    <P extends FieldPath<InputOf<S>>>(name: P): FieldPathValue<InputOf<S>, P>;
    <const P extends ReadonlyArray<FieldPath<InputOf<S>>>>(
      names: P,
    ): { [I in keyof P]: FieldPathValue<InputOf<S>, P[I] & string> };
  };
  /** Sets a field's value (and its control); `shouldValidate` shows its error now. */
  setValue<P extends FieldPath<InputOf<S>>>(
    name: P,
    value: FieldPathValue<InputOf<S>, P>,
    options?: { shouldValidate?: boolean },
  ): void;
  getFieldState(name: FieldPath<InputOf<S>>): FieldState;
  /** Back to the defaults, or to `values`, which become the new defaults; every error goes. Stable across renders. */
  reset(values?: DefaultValues<InputOf<S>>): void;
};

// ---------------------------------------------------------------------------------------------------------
// Paths into plain objects and arrays.

function readPath(values: unknown, name: string): unknown {
  let current = values;
  for (const key of name.split(".")) {
    if (current === null || typeof current !== "object") return undefined;
    current = Reflect.get(current, key);
  }
  return current;
}

/** A copy of `values` with `name` set; the objects and arrays on the way are copied, the rest is shared. */
function writePath<T>(values: T, name: string, value: unknown): T {
  const [key, ...rest] = name.split(".") as [string, ...string[]];
  const container: unknown = values;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(container)
    ? [...(container as unknown[])]
    : { ...(container !== null && typeof container === "object" ? container : {}) };
  const next = rest.length
    ? writePath(Reflect.get(copy, key) ?? (/^\d+$/.test(rest[0]!) ? [] : {}), rest.join("."), value)
    : value;
  Reflect.set(copy, key, next);
  return copy as T;
}

function isEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length && keys.every((key) => isEqual(Reflect.get(a, key), Reflect.get(b, key)))
  );
}

function issueName(issue: Issue): string {
  return (issue.path ?? []).map((segment) => String(typeof segment === "object" ? segment.key : segment)).join(".");
}

/** The first message of each field name (`""` for issues about the whole form). */
function errorsOf(result: ValidationResult<unknown>): Map<string, string> {
  const errors = new Map<string, string>();
  for (const issue of result.issues ?? []) {
    const name = issueName(issue);
    if (!errors.has(name)) errors.set(name, issue.message);
  }
  return errors;
}

function readControl(element: Control, options: RegisterOptions | undefined, previous: unknown): unknown {
  if (element instanceof HTMLInputElement) {
    if (element.type === "checkbox") return element.checked;
    if (element.type === "radio") return element.checked ? element.value : previous;
    if (options?.valueAsNumber) return element.valueAsNumber;
  }
  return element.value;
}

function writeControl(element: Control, value: unknown) {
  if (element instanceof HTMLInputElement && element.type === "checkbox") element.checked = Boolean(value);
  else if (element instanceof HTMLInputElement && element.type === "radio") element.checked = element.value === value;
  else {
    const text =
      value === undefined || value === null || (typeof value === "number" && Number.isNaN(value))
        ? ""
        : String(value as string | number);
    // Writing the same text again would still move the caret in some browsers.
    if (element.value !== text) element.value = text;
  }
}

// A person pressing the pointer on a button blurs the field first. An error appearing then moves the button
// before the press ends, and the click lands on nothing. So while a pointer is down, an error a blur reveals
// waits until the click has happened.
let pointerIsDown = false;
if (typeof document !== "undefined") {
  document.addEventListener("pointerdown", () => (pointerIsDown = true), true);
  document.addEventListener("pointerup", () => setTimeout(() => (pointerIsDown = false)), true);
  document.addEventListener("pointercancel", () => (pointerIsDown = false), true);
}
function afterPointerRelease(run: () => void) {
  if (!pointerIsDown) return run();
  // The click is dispatched in the same task as pointerup, so a timeout set then runs after it.
  document.addEventListener("pointerup", () => setTimeout(run), { once: true, capture: true });
}

// ---------------------------------------------------------------------------------------------------------

/**
 * A form validated by the same schema as the server (any Standard Schema: zod classic or zod/mini). Controls
 * are uncontrolled and bound with `field(name)` / `register(name)`.
 *
 * When errors show: all of them on submit (the first invalid field gets the focus); a field's own once a
 * field that was typed in is left. Once shown, a field's error follows its value as the person types (it
 * updates, and clears the moment the value is valid), including when another field's change fixes it.
 * Leaving a field never hides an error, and a field nobody typed in shows nothing when tabbed or clicked
 * past, so nothing shifts under the pointer. A server error stays on its field until that field changes.
 */
export function useZodForm<S extends FormSchema>(schema: S, options: ZodFormOptions<S>): ZodForm<S> {
  type Input = InputOf<S>;
  type Name = FieldPath<Input>;
  const [, rerender] = useReducer((count: number) => count + 1, 0);
  // Pages build schemas and error maps inline; the latest ones are read at the time of use.
  const latest = useRef({ schema, serverErrors: options.serverErrors });
  latest.current = { schema, serverErrors: options.serverErrors };

  const store = useRef<{
    defaults: DefaultValues<Input>;
    values: DefaultValues<Input>;
    /** The schema's errors for the current values; only the shown fields' are displayed. */
    schemaErrors: Map<string, string>;
    /** Fields whose schema error is displayed (every field after a submit). */
    shown: Set<string>;
    showAll: boolean;
    serverErrors: Map<string, string>;
    formError: string | undefined;
    edited: Set<string>;
    touched: Set<string>;
    isSubmitting: boolean;
    submitCount: number;
    /** The field to focus after the next render (when its error is on screen). */
    focus: string | undefined;
    /** Increases on every validation, so a slow (async) result never overwrites a newer one. */
    validation: number;
    controls: Map<string, Set<Control>>;
    registrations: Map<string, FieldRegistration>;
    registerOptions: Map<string, RegisterOptions | undefined>;
  } | null>(null);
  store.current ??= {
    defaults: options.defaultValues,
    values: options.defaultValues,
    schemaErrors: new Map(),
    shown: new Set(),
    showAll: false,
    serverErrors: new Map(),
    formError: undefined,
    edited: new Set(),
    touched: new Set(),
    isSubmitting: false,
    submitCount: 0,
    focus: undefined,
    validation: 0,
    controls: new Map(),
    registrations: new Map(),
    registerOptions: new Map(),
  };
  const state = store.current;

  const errorOf = (name: string): string | undefined =>
    state.serverErrors.get(name) ?? (state.showAll || state.shown.has(name) ? state.schemaErrors.get(name) : undefined);

  /** Validates the current values; `then` runs with the result, now when the schema answers synchronously. */
  const validate = useCallback(
    (then?: (result: ValidationResult<unknown>) => void) => {
      const run = ++state.validation;
      const apply = (result: ValidationResult<unknown>) => {
        if (run !== state.validation) return;
        state.schemaErrors = errorsOf(result);
        then?.(result);
        rerender();
      };
      const result = latest.current.schema["~standard"].validate(state.values);
      if (result instanceof Promise) void result.then(apply);
      else apply(result);
    },
    [state],
  );

  const writeControls = useCallback(
    (name?: string) => {
      for (const [controlName, elements] of state.controls) {
        if (name !== undefined && controlName !== name) continue;
        for (const element of elements) writeControl(element, readPath(state.values, controlName));
      }
    },
    [state],
  );

  const setFieldValue = useCallback(
    (name: string, value: unknown) => {
      state.values = writePath(state.values, name, value);
      state.serverErrors.delete(name);
      validate();
    },
    [state, validate],
  );

  const register = useCallback(
    (name: Name, registerOptions?: RegisterOptions): FieldRegistration => {
      state.registerOptions.set(name, registerOptions);
      // One stable object per name, so React does not detach and re-attach the ref on every render.
      let registration = state.registrations.get(name);
      if (!registration) {
        registration = {
          name,
          ref: (element) => {
            if (!element) return;
            const elements = state.controls.get(name) ?? new Set();
            state.controls.set(name, elements.add(element));
            writeControl(element, readPath(state.values, name));
            return () => elements.delete(element);
          },
          onChange: (event) => {
            state.edited.add(name);
            setFieldValue(
              name,
              readControl(event.target, state.registerOptions.get(name), readPath(state.values, name)),
            );
          },
          onBlur: () => {
            state.touched.add(name);
            // Leaving a field can only reveal its error, and only when it was typed in.
            if (!state.edited.has(name) || state.shown.has(name)) return;
            afterPointerRelease(() => {
              state.shown.add(name);
              rerender();
            });
          },
        };
        state.registrations.set(name, registration);
      }
      return registration;
    },
    [state, setFieldValue],
  );

  const setServerError = useCallback(
    (error: unknown, fieldName?: Name) => {
      const target =
        typeof error === "string"
          ? { field: fieldName, message: error }
          : fieldName
            ? { field: fieldName, message: errorMessage(error) }
            : serverErrorTarget(error, latest.current.serverErrors);
      if (target.field) {
        state.serverErrors.set(target.field, target.message);
        state.focus = target.field;
      } else state.formError = target.message;
      rerender();
    },
    [state],
  );

  const submit = useCallback(
    (onValid: (data: OutputOf<S>) => unknown) => async (event?: BaseSyntheticEvent) => {
      event?.preventDefault?.();
      if (state.isSubmitting) return;
      state.serverErrors.clear();
      state.formError = undefined;
      state.showAll = true;
      state.submitCount += 1;
      state.isSubmitting = true;
      const result = await new Promise<ValidationResult<unknown>>((resolve) => validate(resolve));
      if (result.issues) {
        state.isSubmitting = false;
        state.focus = firstInvalidField();
        rerender();
        return;
      }
      try {
        await onValid(result.value as OutputOf<S>);
      } catch (error) {
        setServerError(error);
      } finally {
        state.isSubmitting = false;
        rerender();
      }
    },
    [state, validate, setServerError],
  );

  /** The invalid field whose control comes first on the page. */
  function firstInvalidField(): string | undefined {
    let first: { name: string; element: Control } | undefined;
    for (const [name, elements] of state.controls) {
      if (!errorOf(name)) continue;
      for (const element of elements) {
        if (!first || first.element.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_PRECEDING)
          first = { name, element };
      }
    }
    return first?.name;
  }

  const reset = useCallback(
    (values?: DefaultValues<Input>) => {
      if (values !== undefined) state.defaults = values;
      state.values = state.defaults;
      state.schemaErrors = new Map();
      state.shown.clear();
      state.showAll = false;
      state.serverErrors.clear();
      state.formError = undefined;
      state.edited.clear();
      state.touched.clear();
      state.validation += 1;
      writeControls();
      rerender();
    },
    [state, writeControls],
  );

  const setValue = useCallback(
    (name: string, value: unknown, setOptions?: { shouldValidate?: boolean }) => {
      if (setOptions?.shouldValidate) state.shown.add(name);
      state.values = writePath(state.values, name, value);
      writeControls(name);
      state.serverErrors.delete(name);
      validate();
    },
    [state, validate, writeControls],
  );

  // Focus moves after the render that shows the error (a control disabled while submitting is enabled again).
  useEffect(() => {
    if (!state.focus || state.isSubmitting) return;
    const element = [...(state.controls.get(state.focus) ?? [])][0];
    state.focus = undefined;
    element?.focus();
  });

  const names = new Set([...state.serverErrors.keys(), ...(state.showAll ? state.schemaErrors.keys() : state.shown)]);
  const errors: Partial<Record<string, { message: string }>> = {};
  for (const name of names) {
    const message = errorOf(name);
    if (message) errors[name] = { message };
  }
  const formError = state.formError ?? (state.showAll ? state.schemaErrors.get("") : undefined);

  const watch = useMemo(
    () =>
      ((names?: string | ReadonlyArray<string>) =>
        names === undefined
          ? state.values
          : typeof names === "string"
            ? readPath(state.values, names)
            : names.map((name) => readPath(state.values, name))) as ZodForm<S>["watch"],
    [state],
  );

  return {
    field: (name, registerOptions) => ({ ...register(name, registerOptions), error: errorOf(name) }),
    register,
    formError,
    formState: {
      errors,
      isSubmitting: state.isSubmitting,
      isSubmitted: state.submitCount > 0,
      submitCount: state.submitCount,
      isDirty: !isEqual(state.values, state.defaults),
    },
    setServerError,
    submit,
    watch,
    setValue: setValue as ZodForm<S>["setValue"],
    getFieldState: (name) => {
      const message = errorOf(name);
      return {
        invalid: Boolean(message),
        error: message ? { message } : undefined,
        isDirty: !isEqual(readPath(state.values, name), readPath(state.defaults, name)),
        isTouched: state.touched.has(name),
      };
    },
    reset,
  };
}
