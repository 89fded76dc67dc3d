package egdb;

/** A game-theoretic value for the side to move. */
public enum Value {
    WIN(1),
    LOSS(2),
    DRAW(3);

    private final int code;

    Value(int code) {
        this.code = code;
    }

    /** The Kingsrow code ({@code EGDB_WIN = 1, EGDB_LOSS = 2, EGDB_DRAW = 3}). */
    public int code() {
        return code;
    }

    /**
     * The signed value, python-chess's convention: +1 win, 0 draw, -1 loss for the side to move
     * (the C helper {@code egdb_wdl}). Unlike {@link #code()}, {@code wdl() > 0} means a win.
     */
    public int wdl() {
        return switch (this) {
            case WIN -> 1;
            case DRAW -> 0;
            case LOSS -> -1;
        };
    }

    /** The value for the other side. */
    public Value negate() {
        return switch (this) {
            case WIN -> LOSS;
            case LOSS -> WIN;
            case DRAW -> DRAW;
        };
    }

    /** The value of a Kingsrow code; {@link MissingTableException} for any other number. */
    public static Value of(int code) {
        return switch (code) {
            case 1 -> WIN;
            case 2 -> LOSS;
            case 3 -> DRAW;
            default -> throw new MissingTableException("no value (code " + code + ")", code);
        };
    }
}
