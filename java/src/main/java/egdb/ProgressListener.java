package egdb;

/** Progress of a long job (build, verify). May be called from a thread of the native library. */
@FunctionalInterface
public interface ProgressListener {
    /**
     * Called as the job advances.
     *
     * @param what what was just done (for a build: the slice, e.g. {@code "1101"})
     * @param done units done so far (positions)
     * @param total units in all
     * @return {@code true} to go on, {@code false} to cancel (the job then throws
     *     {@link CancelledException}); an exception thrown here also cancels and is rethrown
     */
    boolean progress(String what, long done, long total);
}
