package egdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** FEN dialects, Hub positions and moves (Scan's protocol.txt), and the signed WDL. */
class NotationTest {
    private static final Position START = Position.fromFen("W:W31-50:B1-20");
    private static final String START_HUB = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

    @Test
    void fenDialectsReadAsTheSamePosition() {
        assertEquals(START, Position.fromFen("W:W31-50:B1-20:H0:F1"));
        assertEquals(START, Position.fromFen("[FEN \"W:W31-50:B1-20\"]"));
        FenException e = assertThrows(FenException.class, () -> Position.fromFen("W:W31-50:B1-20:H0:Fx"));
        assertTrue(e.getMessage().contains("\"Fx\" at byte 18"), e.getMessage());
    }

    @Test
    void hubPositions() {
        assertEquals(START, Position.fromHub(START_HUB));
        assertEquals(START_HUB, START.toHub());
        FenException e = assertThrows(FenException.class, () -> Position.fromHub("w" + "e".repeat(50)));
        assertTrue(e.getMessage().contains("at byte 0"), e.getMessage());
        Random rng = new Random(14);
        Slice slice = new Slice(3, 1, 2, 2);
        for (int i = 0; i < 2000; i++) {
            Position p = Position.fromIndex(Math.floorMod(rng.nextLong(), slice.size()), slice, Color.of(i % 2));
            StringBuilder expected = new StringBuilder(p.turn() == Color.WHITE ? "W" : "B");
            for (int s = 1; s <= 50; s++) {
                long bit = 1L << ((s - 1) + (s - 1) / 10);
                char c = (p.white() & bit) != 0 ? 'w' : (p.black() & bit) != 0 ? 'b' : 'e';
                expected.append((p.king() & bit) != 0 ? Character.toUpperCase(c) : c);
            }
            assertEquals(expected.toString(), p.toHub());
            assertEquals(p, Position.fromHub(p.toHub()));
        }
    }

    @Test
    void movesInBothNotations() {
        // protocol.txt: after 32-28 19-23 White takes 28x19x23 (PDN 28x19).
        Position p = START.play("32-28").play("19-23");
        assertEquals(List.of("28x19"), p.legalMoves());
        assertEquals(List.of("28x19x23"), p.hubMoves());
        assertEquals(p.play("28x19"), p.play("28x19x23"));
        Position line = Position.fromFen("W:WK46:B14,23,32,41");
        assertEquals(Position.fromFen("B:WK10:B"), line.play("46x10x41x32x23x14"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> p.play("28x19x24"));
        assertTrue(e.getMessage().contains("legal moves for White"), e.getMessage());
    }

    @Test
    void everyMovePlaysInEitherNotationAndAnyCaptureOrder() {
        Random rng = new Random(15);
        Slice[] slices = {new Slice(3, 1, 3, 1), new Slice(1, 2, 1, 2), new Slice(4, 0, 4, 0)};
        int shuffled = 0;
        for (int i = 0; i < 1500; i++) {
            Slice s = slices[i % slices.length];
            Position p = Position.fromIndex(Math.floorMod(rng.nextLong(), s.size()), s, Color.of(i % 2));
            for (Move m : p.moves()) {
                assertEquals(m.position(), p.play(m.pdn()));
                assertEquals(m.position(), p.play(m.hub()));
                String[] parts = m.hub().split("x");
                if (parts.length > 3) {
                    List<String> captured = new ArrayList<>(List.of(parts).subList(2, parts.length));
                    Collections.shuffle(captured, rng);
                    assertEquals(m.position(), p.play(parts[0] + "x" + parts[1] + "x" + String.join("x", captured)));
                    shuffled++;
                }
            }
        }
        assertTrue(shuffled > 20, "multi-captures exercised: " + shuffled);
    }

    @Test
    void signedWdl() {
        assertEquals(1, Value.WIN.wdl());
        assertEquals(0, Value.DRAW.wdl());
        assertEquals(-1, Value.LOSS.wdl());
        for (Value v : Value.values()) assertEquals(-v.wdl(), v.negate().wdl());
    }

    @Test
    void wdlFollowsNegamaxAndBestMovesCarryHub() {
        try (Database db = Database.open(TestDatabase.directory())) {
            assertEquals(-1, db.probeWdl("W:W28:BK26"));
            assertEquals(1, db.probeWdl("B:W28:BK26"));
            Probe probe = db.probe(Position.fromFen("W:W28,K45:B23"));
            assertEquals("28x19", probe.bestMove().orElseThrow());
            assertEquals("28x19x23", probe.bestMoveHub().orElseThrow());
            assertEquals(1, probe.wdl());
            Slice slice = new Slice(1, 0, 1, 1);
            int[] seen = new int[3];
            for (long i = 0; i < slice.size(); i += 31) {
                Position p = Position.fromIndex(i, slice, Color.of((int) (i % 2)));
                int best = -1;
                for (Position q : p.successors()) {
                    best = Math.max(best, q.black() == 0 || q.white() == 0 ? 1 : -db.probeWdl(q));
                }
                assertEquals(best, db.probeWdl(p), p.toFen());
                seen[db.probeWdl(p) + 1]++;
                for (MoveDistance m : db.bestMoves(p, DistanceKind.DTW)) {
                    assertEquals(m.position(), p.play(m.hub()));
                    assertEquals(m.value().wdl(), m.wdl());
                }
            }
            assertTrue(seen[0] > 10 && seen[1] > 10 && seen[2] > 10, java.util.Arrays.toString(seen));
        }
    }
}
