package egdb;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * Everything one probe tells about a position, for the side to move: the value, the distances in
 * plies (empty for draws or when the database holds no such data) and the best move in PDN and in
 * Hub notation (empty when there is no legal move).
 */
public record Probe(Value value, OptionalInt dtw, OptionalInt mtc, Optional<String> bestMove,
        Optional<String> bestMoveHub) {
    /** {@link Value#wdl()} of {@link #value()}: +1 win, 0 draw, -1 loss. */
    public int wdl() {
        return value.wdl();
    }
}
