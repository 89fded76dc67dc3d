package egdb;

/**
 * The native methods: one per function of the C interface {@code egdb.h}, implemented in
 * {@code bindings/java/egdb_jni.cpp}. Errors arrive as {@link EgdbException}s thrown by the glue.
 *
 * <p>The library {@code egdb_jni} (which links {@code egdb}) is loaded by {@link NativeLoader}: from
 * the path in the system property {@code egdb.library} when it is set, else from the copy the jar
 * carries for this platform, else from {@code java.library.path}.
 */
final class Native {
    static {
        NativeLoader.load();
    }

    private Native() {}

    static native String version();

    static native long[] fenToPosition(String fen);

    static native String positionToFen(long black, long white, long king, int color);

    static native long[] successors(long black, long white, long king, int color);

    static final int NOTATION_PDN = 0;
    static final int NOTATION_HUB = 1;

    static native String[] moveStrings(long black, long white, long king, int color, long[] successors, int notation);

    static native long[] hubToPosition(String hub);

    static native String positionToHub(long black, long white, long king, int color);

    static native long[] parseMove(long black, long white, long king, int color, String move);

    static native boolean isCapture(long black, long white, long king, int color);

    static native long sliceSize(int nbm, int nbk, int nwm, int nwk);

    static native long positionToIndex(long black, long white, long king, int nbm, int nbk, int nwm, int nwk);

    static native long[] indexToPosition(long index, int nbm, int nbk, int nwm, int nwk);

    static native int open(String options, int cacheMb, String directory);

    static native void close(int handle);

    static native int type(int handle);

    static native int maxPieces(int handle);

    static native int lookupWithSearch(int handle, long black, long white, long king, int color);

    static native String probe(int handle, long black, long white, long king, int color, int[] values);

    static native String[] bestMoves(int handle, String fen, int kind, int[] numbers, long[] boards);

    static native String pv(int handle, String fen);

    static native void lookupBatch(int handle, long[] boards, int[] colors, int[] results);

    static native long[] stats(int handle);

    static native int verify(int handle, ProgressListener listener);

    static native String lastError(int handle);

    static native void build(String directory, int pieces, int threads, String kinds, boolean verify,
            ProgressListener listener);
}
