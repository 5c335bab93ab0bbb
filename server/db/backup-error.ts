/** A backup or restore that cannot go on; its message is one line for the operator (the CLIs exit 1 with it). */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BackupError";
  }
}
