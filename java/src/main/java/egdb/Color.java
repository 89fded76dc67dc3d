package egdb;

/** The side to move, numbered as in the C interface ({@code EGDB_BLACK = 0, EGDB_WHITE = 1}). */
public enum Color {
    BLACK,
    WHITE;

    /** The other side. */
    public Color opponent() {
        return this == BLACK ? WHITE : BLACK;
    }

    /** The C interface's number. */
    public int code() {
        return ordinal();
    }

    static Color of(long code) {
        return code == 0 ? BLACK : WHITE;
    }
}
