import { useState, type FormEvent } from "react";
import type { z } from "zod";

type FieldErrors<T> = Partial<Record<keyof T & string, string>>;

/**
 * Form state validated by the same zod schema the server uses. Errors show once a field that was typed
 * in is left, or when the form is submitted; tabbing or clicking past an untouched field shows nothing
 * (a message appearing then would shift the page under the pointer). `setServerError` puts a server
 * answer on a field or above the form.
 */
export function useForm<S extends z.ZodType<Record<string, unknown>>>(schema: S, initial: z.input<S>) {
  type Values = z.input<S>;
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<FieldErrors<Values>>({});
  const [touched, setTouched] = useState<Partial<Record<keyof Values & string, boolean>>>({});
  const [edited, setEdited] = useState<Partial<Record<keyof Values & string, boolean>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);

  function validate(next: Values): FieldErrors<Values> {
    const result = schema.safeParse(next);
    if (result.success) return {};
    const found: FieldErrors<Values> = {};
    for (const issue of result.error.issues) {
      const key = issue.path[0] as keyof Values & string;
      if (key && !found[key]) found[key] = issue.message;
    }
    return found;
  }

  function field<K extends keyof Values & string>(name: K) {
    return {
      name,
      value: (values[name] ?? "") as string,
      error: touched[name] ? errors[name] : undefined,
      onChange: (event: { target: { value: string } }) => {
        const next = { ...(values as Record<string, unknown>), [name]: event.target.value } as Values;
        setValues(next);
        if (!edited[name]) setEdited((current) => ({ ...current, [name]: true }));
        if (touched[name]) setErrors(validate(next));
      },
      onBlur: () => {
        if (!edited[name] && !touched[name]) return;
        setTouched((current) => ({ ...current, [name]: true }));
        setErrors(validate(values));
      },
    };
  }

  function handleSubmit(onValid: (data: z.output<S>) => Promise<void>) {
    return async (event: FormEvent) => {
      event.preventDefault();
      setFormError(null);
      const all = Object.fromEntries(Object.keys(values as object).map((key) => [key, true]));
      setTouched(all as typeof touched);
      const result = schema.safeParse(values);
      if (!result.success) {
        setErrors(validate(values));
        return;
      }
      setErrors({});
      setSubmitting(true);
      try {
        await onValid(result.data as z.output<S>);
      } finally {
        setSubmitting(false);
      }
    };
  }

  function setServerError(message: string, fieldName?: keyof Values & string) {
    if (fieldName) {
      setTouched((current) => ({ ...current, [fieldName]: true }));
      setErrors((current) => ({ ...current, [fieldName]: message }));
    } else {
      setFormError(message);
    }
  }

  return { values, setValues, field, handleSubmit, isSubmitting, formError, setServerError, setFormError };
}
