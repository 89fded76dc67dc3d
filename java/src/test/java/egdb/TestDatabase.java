package egdb;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** One 3-piece database (WLD, DTW, MTC) built once for all the tests of a run. */
final class TestDatabase {
    private static Path directory;

    private TestDatabase() {}

    static synchronized Path directory() {
        if (directory == null) {
            try {
                Path dir = Files.createTempDirectory("egdb-java-db3");
                Database.build(dir, 3, 2, null);
                directory = dir;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return directory;
    }
}
