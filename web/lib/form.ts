import { zodResolver } from "@hookform/resolvers/zod";
import { useRef, type BaseSyntheticEvent } from "react";
import {
  get,
  useForm as useHookForm,
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  type RegisterOptions,
  type Resolver,
  type UseFormProps,
  type UseFormRegisterReturn,
  type UseFormReturn,
} from "react-hook-form";
import type { z } from "zod";
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
    const prefix = Object.keys(map).find((key) => key.length > 1 && key.endsWith("*") && code.startsWith(key.slice(0, -1)));
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

/** The name under which an error above the form is kept (react-hook-form clears `root` errors on each submit). */
export const FORM_ERROR = "root.server" as const;

export type FieldBinding = UseFormRegisterReturn & { error?: string };

export type ZodFormOptions<S extends z.ZodType<FieldValues, FieldValues>> = Omit<
  UseFormProps<z.input<S>, unknown, z.output<S>>,
  "resolver" | "mode" | "reValidateMode" | "defaultValues"
> & {
  defaultValues: DefaultValues<z.input<S>>;
  /** Server errors (by code or status) that are shown on a field rather than above the form. */
  serverErrors?: ServerErrorMap<FieldPath<z.input<S>>>;
};

export type ZodForm<S extends z.ZodType<FieldValues, FieldValues>> = UseFormReturn<z.input<S>, unknown, z.output<S>> & {
  /** `register` plus the field's error, for `<TextField {...form.field("email")} />`. */
  field(name: FieldPath<z.input<S>>, options?: RegisterOptions<z.input<S>, FieldPath<z.input<S>>>): FieldBinding;
  /** The error above the form (a server answer that belongs to no field), or undefined. */
  formError: string | undefined;
  /** Puts an error (an ApiError, anything thrown, or a message) on `field`, on its field by `serverErrors`, or above the form. */
  setServerError(error: unknown, field?: FieldPath<z.input<S>>): void;
  /**
   * The form's submit handler: validates with the schema, then runs `onValid`; whatever `onValid` throws is
   * shown on its field or above the form, so pages need no try/catch. `formState.isSubmitting` is true meanwhile.
   */
  submit(onValid: (data: z.output<S>) => unknown): (event?: BaseSyntheticEvent) => Promise<void>;
};

/**
 * A react-hook-form form validated by the same zod schema as the server. Errors show once a field that
 * was typed in is left, or when the form is submitted; they clear as the field becomes valid while the
 * person types. Tabbing or clicking past a field nobody typed in shows nothing (a message appearing then
 * would shift the page under the pointer). Nested objects and arrays work as in react-hook-form
 * (`field("address.city")`, `useFieldArray({ control: form.control, name: "items" })`).
 */
export function useZodForm<S extends z.ZodType<FieldValues, FieldValues>>(schema: S, options: ZodFormOptions<S>): ZodForm<S> {
  type Input = z.input<S>;
  type Name = FieldPath<Input>;
  const { serverErrors, ...rest } = options;
  const form = useHookForm<Input, unknown, z.output<S>>({
    ...rest,
    mode: "onTouched",
    reValidateMode: "onChange",
    resolver: zodResolver(schema as never) as unknown as Resolver<Input, unknown, z.output<S>>,
  });
  const edited = useRef(new Set<string>());
  const errors = form.formState.errors;

  function field(name: Name, registerOptions?: RegisterOptions<Input, Name>): FieldBinding {
    const registration = form.register(name, registerOptions);
    const error = get(errors, name) as { message?: string } | undefined;
    return {
      ...registration,
      error: error?.message || undefined,
      onChange: (event) => {
        edited.current.add(name);
        return registration.onChange(event);
      },
      // "onTouched" validates on the first blur; only let that happen once the person has typed here.
      onBlur: async (event) => (edited.current.has(name) ? registration.onBlur(event) : undefined),
    };
  }

  function setServerError(error: unknown, fieldName?: Name) {
    const target =
      typeof error === "string"
        ? { field: fieldName, message: error }
        : fieldName
          ? { field: fieldName, message: errorMessage(error) }
          : serverErrorTarget(error, serverErrors);
    if (target.field) form.setError(target.field, { type: "server", message: target.message }, { shouldFocus: true });
    else form.setError(FORM_ERROR, { type: "server", message: target.message });
  }

  function submit(onValid: (data: z.output<S>) => unknown) {
    return form.handleSubmit(async (data) => {
      try {
        await onValid(data);
      } catch (error) {
        setServerError(error);
      }
    });
  }

  const formError = (errors.root?.server?.message as string | undefined) || undefined;
  return { ...form, field, formError, setServerError, submit };
}
