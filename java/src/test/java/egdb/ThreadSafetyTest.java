package egdb;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Many Java threads probe one Database at once and get the answers of a single thread. */
class ThreadSafetyTest {
    @Test
    void parallelProbesAgreeWithSerialOnes() throws Exception {
        List<Position> positions = DatabaseTest.sample(500, 7);
        try (Database db = Database.open(TestDatabase.directory())) {
            List<Value> expected = positions.stream().map(db::probeWld).toList();
            ExecutorService pool = Executors.newFixedThreadPool(8);
            try {
                List<Future<List<Value>>> futures = new ArrayList<>();
                for (int t = 0; t < 16; t++) {
                    boolean batch = t % 2 == 0;
                    futures.add(pool.submit(() -> batch ? db.probeWld(positions)
                            : positions.stream().map(db::probeWld).toList()));
                }
                for (Future<List<Value>> f : futures) assertEquals(expected, f.get());
            } finally {
                pool.shutdown();
            }
        }
    }
}
