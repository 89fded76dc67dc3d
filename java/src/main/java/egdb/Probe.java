package egdb;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * Everything one probe tells about a position, for the side to move: the value, the distances in
 * plies (empty for draws or when the database holds no such data) and the best move (empty when
 * there is no legal move).
 */
public record Probe(Value value, OptionalInt dtw, OptionalInt mtc, Optional<String> bestMove) {}
