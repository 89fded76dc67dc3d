package egdb;

/** Which distance ranks moves: to the end of the game, or to the next conversion. */
public enum DistanceKind {
    /** Distance to win: plies to the end of the game. */
    DTW,
    /** Moves to conversion: plies to the next capture or man move. */
    MTC
}
