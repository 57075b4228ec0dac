/** A form-level message ("_" in a 400's fields, or a failure with no field). */
export function FormAlert({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <p role="alert" className="rounded-lg bg-red-950/70 p-3 text-sm font-medium text-red-200">
      {message}
    </p>
  );
}
