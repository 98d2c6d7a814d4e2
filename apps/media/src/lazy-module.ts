/**
 * What a module gives, imported when first needed and once (issue 34, light servers: an idle node holds none
 * of it). A failed import is tried again by the next {@link load}.
 */
export class LazyModule<T> {
  private readonly importer: () => Promise<T>;
  private value: T | null = null;
  private loading: Promise<T> | null = null;

  constructor(importer: () => Promise<T>) {
    this.importer = importer;
  }

  /** What it gives if loaded, else null. */
  get loaded(): T | null {
    return this.value;
  }

  load(): Promise<T> {
    this.loading ??= this.importer().then(
      (value) => (this.value = value),
      (error: unknown) => {
        this.loading = null;
        throw error;
      },
    );
    return this.loading;
  }
}
