import { useEffect, useRef } from "react";
import { Alert } from "./ui/alert";

/**
 * The error above a form (`form.formError`). It takes the focus when it appears, so after a failed submit the
 * keyboard and the screen reader are where the explanation is (an error on a field focuses that field instead).
 * react-hook-form clears the error on each submit, so the same refusal twice in a row focuses it again.
 */
export function FormErrorAlert({ message }: { message: string | undefined }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (message) ref.current?.focus();
  }, [message]);
  if (!message) return null;
  return (
    <div ref={ref} tabIndex={-1} className="rounded-lg outline-none">
      <Alert tone="error">{message}</Alert>
    </div>
  );
}
