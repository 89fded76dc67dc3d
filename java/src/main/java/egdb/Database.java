package egdb;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * An open endgame database. Thread-safe: any number of threads may probe one instance at once
 * (the native library runs lookups in parallel). Close it when done, e.g. with
 * try-with-resources.
 *
 * <p>Probes throw {@link MissingTableException} when the database cannot answer (too many pieces,
 * a missing slice, no data of the kind asked for) and {@link DatabaseException} once closed.
 */
public final class Database implements AutoCloseable {
    private static final int MAX_MOVES = 128;

    private final Path directory;
    // -1 once closed. Volatile: another thread's close() must be seen; the native library itself
    // rejects a closed handle safely, so no lock is needed around the calls.
    private volatile int handle;

    private Database(Path directory, int handle) {
        this.directory = directory;
        this.handle = handle;
    }

    /** Opens the database in {@code directory} (any Kingsrow type, native, or several kinds). */
    public static Database open(Path directory) {
        return open(directory, 0, 64);
    }

    /**
     * Opens the database in {@code directory}.
     *
     * @param maxPieces the largest number of pieces to load, 0 for all
     * @param cacheMb bound of the handle's one page cache, shared by every kind and folder it opens
     * @throws DatabaseException if nothing can be opened
     */
    public static Database open(Path directory, int maxPieces, int cacheMb) {
        String options = maxPieces > 0 ? "maxpieces=" + maxPieces : "";
        return new Database(directory, Native.open(options, cacheMb, directory.toString()));
    }

    /**
     * Solves every endgame with at most {@code pieces} pieces (WLD, DTW and MTC) into a native
     * database in {@code directory}, resuming an interrupted build, then verifies it.
     *
     * @param threads worker threads, 0 for every core
     * @param listener progress after each slice, or null
     */
    public static void build(Path directory, int pieces, int threads, ProgressListener listener) {
        Native.build(directory.toString(), pieces, threads, "wld,dtw,mtc", true, listener);
    }

    /** {@link #build(Path, int, int, ProgressListener)} on every core, without progress. */
    public static void build(Path directory, int pieces) {
        build(directory, pieces, 0, null);
    }

    /** The version of the native library. */
    public static String version() {
        return Native.version();
    }

    private int h() {
        int current = handle;
        if (current < 0) throw new DatabaseException("the database " + directory + " is closed", -104);
        return current;
    }

    /** The folder it was opened from. */
    public Path directory() {
        return directory;
    }

    /** The largest number of pieces it covers. */
    public int maxPieces() {
        return Native.maxPieces(h());
    }

    /** The {@code EGDB_*} type code of its data (100 for egdb's native format). */
    public int type() {
        return Native.type(h());
    }

    /** Win, loss or draw for the side to move (captures and unstored positions resolved by search). */
    public Value probeWld(Position p) {
        return Value.of(Native.lookupWithSearch(h(), p.black(), p.white(), p.king(), p.turn().code()));
    }

    /** {@link #probeWld(Position)} of a FEN. */
    public Value probeWld(String fen) {
        return probeWld(Position.fromFen(fen));
    }

    /** The signed value for the side to move: +1 win, 0 draw, -1 loss (python-chess's probe_wdl). */
    public int probeWdl(Position p) {
        return probeWld(p).wdl();
    }

    /** {@link #probeWdl(Position)} of a FEN. */
    public int probeWdl(String fen) {
        return probeWdl(Position.fromFen(fen));
    }

    /** Value, DTW, MTC and best move (PDN and Hub) in one call. */
    public Probe probe(Position p) {
        int[] values = new int[3];
        String best = Native.probe(h(), p.black(), p.white(), p.king(), p.turn().code(), values);
        if (best.isEmpty()) {
            return new Probe(Value.of(values[0]), optional(values[1]), optional(values[2]), Optional.empty(),
                    Optional.empty());
        }
        return new Probe(Value.of(values[0]), optional(values[1]), optional(values[2]), Optional.of(best),
                Optional.of(hubOf(p, p.play(best))));
    }

    /** The Hub string of the first legal move from {@code p} to {@code after}. */
    private static String hubOf(Position p, Position after) {
        for (Move m : p.moves()) {
            if (m.position().equals(after)) return m.hub();
        }
        throw new IllegalStateException(after + " does not follow " + p);
    }

    /**
     * Distance to win: plies to the end of the game with best play; empty for a draw.
     *
     * @throws MissingTableException without DTW data for the position
     */
    public OptionalInt probeDtw(Position p) {
        return distance(p, DistanceKind.DTW);
    }

    /**
     * Moves to conversion: plies to the next capture or man move with best play; empty for a draw.
     *
     * @throws MissingTableException without MTC data for the position
     */
    public OptionalInt probeMtc(Position p) {
        return distance(p, DistanceKind.MTC);
    }

    private OptionalInt distance(Position p, DistanceKind kind) {
        Probe r = probe(p);
        if (r.value() == Value.DRAW) return OptionalInt.empty();
        OptionalInt d = kind == DistanceKind.DTW ? r.dtw() : r.mtc();
        if (d.isEmpty()) throw new MissingTableException("no " + kind + " data for " + p + " in " + directory, -109);
        return d;
    }

    /** Every legal move with its value and distance, best first. */
    public List<MoveDistance> bestMoves(Position p, DistanceKind kind) {
        int[] numbers = new int[2 * MAX_MOVES];
        long[] boards = new long[3 * MAX_MOVES];
        String[] moves = Native.bestMoves(h(), p.toFen(), kind.ordinal(), numbers, boards);
        List<MoveDistance> out = new ArrayList<>(moves.length);
        List<Move> legal = p.moves();
        for (int i = 0; i < moves.length; i++) {
            Position after = new Position(boards[3 * i], boards[3 * i + 1], boards[3 * i + 2], p.turn().opponent());
            String hub = legal.stream().filter(m -> m.position().equals(after)).findFirst().orElseThrow().hub();
            out.add(new MoveDistance(moves[i], optional(numbers[2 * i]), Value.of(numbers[2 * i + 1]), after, hub));
        }
        return out;
    }

    /** The principal variation to the end of the game (DTW) as PDN moves. */
    public List<String> pv(Position p) {
        String text = Native.pv(h(), p.toFen());
        return text.isEmpty() ? List.of() : List.of(text.split(" "));
    }

    /**
     * Win/loss/draw of many positions in one native call: {@code boards} holds
     * {@code black, white, king} for each position, {@code colors} the side to move (0 black, 1
     * white). Returns the Kingsrow codes (1 win, 2 loss, 3 draw), or a negative code for a
     * position the database cannot answer.
     */
    public int[] probeWldCodes(long[] boards, int[] colors) {
        if (boards.length != 3 * colors.length) {
            throw new IllegalArgumentException("boards must hold 3 longs per colour");
        }
        int[] results = new int[colors.length];
        Native.lookupBatch(h(), boards, colors, results);
        return results;
    }

    /** Win/loss/draw of many positions in one native call; {@link MissingTableException} if one fails. */
    public List<Value> probeWld(List<Position> positions) {
        long[] boards = new long[3 * positions.size()];
        int[] colors = new int[positions.size()];
        for (int i = 0; i < colors.length; i++) {
            Position p = positions.get(i);
            boards[3 * i] = p.black();
            boards[3 * i + 1] = p.white();
            boards[3 * i + 2] = p.king();
            colors[i] = p.turn().code();
        }
        int[] codes = probeWldCodes(boards, colors);
        List<Value> out = new ArrayList<>(codes.length);
        for (int i = 0; i < codes.length; i++) {
            if (codes[i] < 0) {
                throw new MissingTableException("position " + i + " (" + positions.get(i) + ") cannot be probed",
                        codes[i]);
            }
            out.add(Value.of(codes[i]));
        }
        return out;
    }

    /** Lookup and cache counters since it was opened. */
    public Stats stats() {
        long[] s = Native.stats(h());
        return new Stats(s[0], s[1], s[2], s[3], s[4]);
    }

    /**
     * Checks every file; {@link DatabaseException} naming the first problems if any.
     *
     * @param listener progress, or null
     */
    public void verify(ProgressListener listener) {
        int problems = Native.verify(h(), listener);
        if (problems > 0) {
            throw new DatabaseException(problems + " problem(s) in " + directory + ":\n"
                    + Native.lastError(h()).strip(), -113);
        }
    }

    /** Closes the database. Idempotent. */
    @Override
    public void close() {
        int current;
        synchronized (this) {
            current = handle;
            handle = -1;
        }
        if (current >= 0) Native.close(current);
    }

    private static OptionalInt optional(int value) {
        return value < 0 ? OptionalInt.empty() : OptionalInt.of(value);
    }
}
