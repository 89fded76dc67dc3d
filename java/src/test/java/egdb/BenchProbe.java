package egdb;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Lookups per second through Java: one call per position, and batches. Compare with
 * python/benchmarks/bench_probe.py, which also times the same lookups from C.
 *
 * <p>Run after {@code mvn test}: {@code java -Djava.library.path=build/bindings/java -cp
 * java/target/classes:java/target/test-classes egdb.BenchProbe [DB] [POSITIONS]}.
 */
public final class BenchProbe {
    private BenchProbe() {}

    public static void main(String[] args) throws Exception {
        Path dir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("egdb-bench");
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        if (args.length == 0) Database.build(dir, 3);
        try (Database db = Database.open(dir)) {
            List<Position> positions = DatabaseTest.sample(count, 1);
            long[] boards = new long[3 * count];
            int[] colors = new int[count];
            for (int i = 0; i < count; i++) {
                Position p = positions.get(i);
                boards[3 * i] = p.black();
                boards[3 * i + 1] = p.white();
                boards[3 * i + 2] = p.king();
                colors[i] = p.turn().code();
            }
            db.probeWldCodes(boards, colors);  // warm-up: JIT and block cache
            for (Position p : positions) db.probeWld(p);
            int reps = 3;
            long t0 = System.nanoTime();
            for (int r = 0; r < reps; r++) for (Position p : positions) db.probeWld(p);
            double single = count * (double) reps / ((System.nanoTime() - t0) * 1e-9);
            t0 = System.nanoTime();
            for (int r = 0; r < reps; r++) db.probeWldCodes(boards, colors);
            double batch = count * (double) reps / ((System.nanoTime() - t0) * 1e-9);
            System.out.printf("%d random positions of 2-3 pieces, WLD with search, one thread%n", count);
            System.out.printf("%-32s%14s%8s%n", "interface", "lookups/s", "ratio");
            System.out.printf("%-32s%,14.0f%8.2f%n", "Java probeWld (one call each)", single, single / batch);
            System.out.printf("%-32s%,14.0f%8.2f%n", "Java probeWldCodes (batch)", batch, 1.0);
        }
    }
}
