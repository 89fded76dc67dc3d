package egdb;

/** Piece counts of a material class: black men, black kings, white men, white kings. */
public record Slice(int nbm, int nbk, int nwm, int nwk) {
    /** Total number of pieces. */
    public int pieces() {
        return nbm + nbk + nwm + nwk;
    }

    /** Number of positions in this slice (Kingsrow indexing, {@code getdatabasesize_slice}). */
    public long size() {
        return Native.sliceSize(nbm, nbk, nwm, nwk);
    }
}
