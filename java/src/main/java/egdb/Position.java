package egdb;

import java.util.ArrayList;
import java.util.List;

/**
 * A draughts position: three bitboards in the Kingsrow layout (square s is bit
 * {@code (s - 1) + (s - 1) / 10}) and the side to move. Immutable.
 */
public record Position(long black, long white, long king, Color turn) {
    private static final long BOARD_MASK = boardMask();

    public Position {
        if (turn == null) throw new IllegalArgumentException("turn is null");
        if (((black | white | king) & ~BOARD_MASK) != 0) {
            throw new IllegalArgumentException("bits outside the 50 squares");
        }
        if ((black & white) != 0) throw new IllegalArgumentException("a square holds a black and a white piece");
        if ((king & ~(black | white)) != 0) throw new IllegalArgumentException("a king bit on an empty square");
    }

    private static long boardMask() {
        long mask = 0;
        for (int s = 1; s <= 50; s++) mask |= 1L << bit(s);
        return mask;
    }

    private static int bit(int square) {
        return (square - 1) + (square - 1) / 10;
    }

    /**
     * Parses a FEN such as {@code "W:W31-50:B1-20"}; {@link FenException} (naming the offending
     * token) if malformed. Also accepted: Lidraughts' suffixes {@code "W:W31-50:B1-20:H0:F1"}
     * (halfmove clock and fullmove number, ignored) and the PDN tag {@code [FEN "..."]}.
     */
    public static Position fromFen(String fen) {
        if (fen == null) throw new IllegalArgumentException("fen is null");
        long[] p = Native.fenToPosition(fen);
        return new Position(p[0], p[1], p[2], Color.of(p[3]));
    }

    /**
     * Parses a Hub protocol position (Scan's protocol.txt): the side to move {@code W} or {@code
     * B}, then one of {@code w b W B e} per square 1..50; {@link FenException} if malformed.
     */
    public static Position fromHub(String hub) {
        if (hub == null) throw new IllegalArgumentException("hub is null");
        long[] p = Native.hubToPosition(hub);
        return new Position(p[0], p[1], p[2], Color.of(p[3]));
    }

    /** The position with Kingsrow index {@code index} in {@code slice} ({@code indextoposition}). */
    public static Position fromIndex(long index, Slice slice, Color turn) {
        long[] p = Native.indexToPosition(index, slice.nbm(), slice.nbk(), slice.nwm(), slice.nwk());
        return new Position(p[0], p[1], p[2], turn);
    }

    /** The canonical FEN. */
    public String toFen() {
        return Native.positionToFen(black, white, king, turn.code());
    }

    /** The Hub protocol position string (51 characters). */
    public String toHub() {
        return Native.positionToHub(black, white, king, turn.code());
    }

    @Override
    public String toString() {
        return toFen();
    }

    /** The legal moves in the Kingsrow generator's order, with the positions after them. */
    public List<Move> moves() {
        long[] after = Native.successors(black, white, king, turn.code());
        String[] pdn = Native.moveStrings(black, white, king, turn.code(), after, Native.NOTATION_PDN);
        String[] hub = Native.moveStrings(black, white, king, turn.code(), after, Native.NOTATION_HUB);
        List<Move> moves = new ArrayList<>(pdn.length);
        for (int i = 0; i < pdn.length; i++) {
            Position next = new Position(after[3 * i], after[3 * i + 1], after[3 * i + 2], turn.opponent());
            moves.add(new Move(pdn[i], next, hub[i]));
        }
        return moves;
    }

    /** The legal moves as PDN strings. */
    public List<String> legalMoves() {
        return moves().stream().map(Move::pdn).toList();
    }

    /** The legal moves as Hub strings. */
    public List<String> hubMoves() {
        return moves().stream().map(Move::hub).toList();
    }

    /** The positions after each legal move ({@code get_movelist}). */
    public List<Position> successors() {
        return moves().stream().map(Move::position).toList();
    }

    /**
     * The position after the legal move {@code move}, in PDN ({@code 32-28}, {@code 28x19}, a full
     * path {@code 26x37x48}) or Hub notation ({@code 28x19x23}, captured squares in any order);
     * {@link IllegalArgumentException}, with the C library's message naming the problem and
     * listing the legal moves, if it is malformed or illegal.
     */
    public Position play(String move) {
        if (move == null) throw new IllegalArgumentException("move is null");
        try {
            long[] p = Native.parseMove(black, white, king, turn.code(), move);
            return new Position(p[0], p[1], p[2], turn.opponent());
        } catch (FenException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    /** Whether the side to move must capture. */
    public boolean isCapture() {
        return Native.isCapture(black, white, king, turn.code());
    }

    /** The piece counts. */
    public Slice slice() {
        return new Slice(Long.bitCount(black & ~king), Long.bitCount(black & king), Long.bitCount(white & ~king),
                Long.bitCount(white & king));
    }

    /** The Kingsrow index inside its own slice ({@code positiontoindex}; no colour reversal). */
    public long index() {
        Slice s = slice();
        return Native.positionToIndex(black, white, king, s.nbm(), s.nbk(), s.nwm(), s.nwk());
    }
}
