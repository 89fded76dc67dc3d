package egdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PositionTest {
    @Test
    void fenRoundTripIsCanonical() {
        Position p = Position.fromFen("B:W28,27,K50:B12,K7,3");
        assertEquals("B:W27,28,K50:B3,K7,12", p.toFen());
        assertEquals(Color.BLACK, p.turn());
        assertEquals(p, Position.fromFen(p.toFen()));
    }

    @Test
    void badFenThrowsWithTheCode() {
        FenException e = assertThrows(FenException.class, () -> Position.fromFen("W:W51:B1"));
        assertEquals(-106, e.code());
        assertFalse(e.getMessage().isEmpty());
    }

    @Test
    void startPositionHasNineMovesAndPerftTwo() {
        Position start = Position.fromFen("W:W31-50:B1-20");
        assertEquals(9, start.legalMoves().size());
        assertFalse(start.isCapture());
        assertEquals(81, start.successors().stream().mapToInt(q -> q.legalMoves().size()).sum());
    }

    @Test
    void capturesAndPlay() {
        Position p = Position.fromFen("W:W28:B23");
        assertTrue(p.isCapture());
        assertEquals(List.of("28x19"), p.legalMoves());
        assertEquals(Position.fromFen("B:W19:B"), p.play("28x19"));
        assertThrows(IllegalArgumentException.class, () -> p.play("28-22"));
    }

    @Test
    void indexRoundTripOverAWholeSlice() {
        Slice s = new Slice(1, 0, 1, 1);
        Set<Position> seen = new HashSet<>();
        for (long i = 0; i < s.size(); i++) {
            Position p = Position.fromIndex(i, s, Color.WHITE);
            assertEquals(s, p.slice());
            assertEquals(i, p.index());
            seen.add(p);
        }
        assertEquals(s.size(), seen.size());
    }

    @Test
    void knownIndex() {
        Position p = Position.fromFen("B:W27,28,K50:B3,K7,12");
        assertEquals(new Slice(2, 1, 2, 1), p.slice());
        assertEquals(134409509L, p.index());
        assertThrows(InvalidArgumentException.class, () -> Position.fromIndex(-1, p.slice(), Color.BLACK));
        assertThrows(InvalidArgumentException.class, () -> new Slice(6, 0, 0, 0).size());
    }

    @Test
    void invalidBitboardsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> new Position(1, 1, 0, Color.WHITE));
        assertThrows(IllegalArgumentException.class, () -> new Position(0, 0, 1, Color.WHITE));
        assertThrows(IllegalArgumentException.class, () -> new Position(1L << 10, 0, 0, Color.WHITE));
    }
}
