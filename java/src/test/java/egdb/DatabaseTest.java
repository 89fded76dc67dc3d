package egdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatabaseTest {
    private static Database db;

    @BeforeAll
    static void open() {
        db = Database.open(TestDatabase.directory());
    }

    @AfterAll
    static void close() {
        db.close();
    }

    /** Random positions of the 2- and 3-piece slices, both sides to move. */
    static List<Position> sample(int count, long seed) {
        Slice[] slices = {new Slice(1, 0, 1, 0), new Slice(0, 1, 0, 1), new Slice(1, 1, 1, 0), new Slice(2, 0, 0, 1),
            new Slice(0, 1, 1, 1), new Slice(1, 0, 2, 0)};
        Random random = new Random(seed);
        List<Position> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            Slice s = slices[random.nextInt(slices.length)];
            long index = (long) (random.nextDouble() * s.size());
            out.add(Position.fromIndex(index, s, random.nextBoolean() ? Color.WHITE : Color.BLACK));
        }
        return out;
    }

    /** The value from the successors' values: what the database must agree with. */
    static Value negamax(Position p) {
        List<Position> next = p.successors();
        if (next.isEmpty()) return Value.LOSS;
        boolean draw = false;
        for (Position q : next) {
            Value v = db.probeWld(q).negate();
            if (v == Value.WIN) return Value.WIN;
            draw |= v == Value.DRAW;
        }
        return draw ? Value.DRAW : Value.LOSS;
    }

    @Test
    void knownValues() {
        Position p = Position.fromFen("W:W28:BK26");
        assertEquals(Value.LOSS, db.probeWld(p));
        assertEquals(OptionalInt.of(6), db.probeDtw(p));
        assertEquals(OptionalInt.of(2), db.probeMtc(p));
        assertEquals(Value.DRAW, db.probeWld("W:WK33:BK18"));
        assertTrue(db.probeDtw(Position.fromFen("W:WK33:BK18")).isEmpty());
        assertEquals(3, db.maxPieces());
        assertEquals(100, db.type());
    }

    @Test
    void valuesAgreeWithOnePlySearch() {
        for (Position p : sample(200, 1)) assertEquals(negamax(p), db.probeWld(p), p.toFen());
    }

    @Test
    void bestMovesAndPv() {
        Position p = Position.fromFen("W:W28:BK26");
        List<MoveDistance> moves = db.bestMoves(p, DistanceKind.DTW);
        assertEquals("28-23", moves.get(0).move());
        assertEquals(OptionalInt.of(6), moves.get(0).distance());
        assertEquals(Value.LOSS, moves.get(0).value());
        assertEquals(OptionalInt.of(5), db.probeDtw(moves.get(0).position()));
        List<String> pv = db.pv(p);
        assertEquals(6, pv.size());
        assertEquals("28-23", pv.get(0));
        assertEquals(moves.get(0).move(), db.probe(p).bestMove().orElseThrow());
        assertEquals(2, db.bestMoves(p, DistanceKind.MTC).size());
    }

    @Test
    void batchEqualsSingleProbes() {
        List<Position> positions = sample(1000, 2);
        List<Value> single = positions.stream().map(db::probeWld).toList();
        assertEquals(single, db.probeWld(positions));
    }

    @Test
    void tooManyPieces() {
        Position four = Position.fromFen("W:W28,33:BK26,K5");
        MissingTableException e = assertThrows(MissingTableException.class, () -> db.probeWld(four));
        assertEquals(-109, e.code());
        assertThrows(MissingTableException.class, () -> db.probeWld(List.of(four)));
        int[] codes = db.probeWldCodes(new long[] {four.black(), four.white(), four.king()}, new int[] {1});
        assertTrue(codes[0] < 0);
    }

    @Test
    void openErrorsAndClosedDatabase(@TempDir Path empty) {
        assertThrows(DatabaseException.class, () -> Database.open(empty.resolve("missing")));
        Database other = Database.open(TestDatabase.directory(), 2, 16);
        assertEquals(2, other.maxPieces());
        other.close();
        other.close();
        assertThrows(DatabaseException.class, () -> other.probeWld("W:W28:BK26"));
    }

    @Test
    void statsAndVerify() {
        db.probeWld("W:W28:BK26");
        Stats s = db.stats();
        assertTrue(s.files() > 0);
        List<String> seen = new ArrayList<>();
        db.verify((what, done, total) -> seen.add(what));
        assertFalse(seen.isEmpty());
    }

    @Test
    void buildProgressCancelAndResume(@TempDir Path dir) {
        List<Long> done = new ArrayList<>();
        assertThrows(CancelledException.class, () -> Database.build(dir, 3, 1, (what, d, total) -> false));
        IllegalStateException thrown = assertThrows(IllegalStateException.class,
                () -> Database.build(dir, 3, 1, (what, d, total) -> {
                    throw new IllegalStateException("stop at " + what);
                }));
        assertTrue(thrown.getMessage().startsWith("stop at"));
        Database.build(dir, 3, 1, (what, d, total) -> done.add(d));
        try (Database built = Database.open(dir)) {
            assertEquals(Value.LOSS, built.probeWld("W:W28:BK26"));
        }
        assertEquals(done.stream().sorted().toList(), done);
    }
}
