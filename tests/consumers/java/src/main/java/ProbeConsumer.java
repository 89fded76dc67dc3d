import egdb.Database;
import egdb.Position;
import java.nio.file.Path;

/** Builds the 3-piece database in the folder given and probes one position (run with no JVM flags). */
public final class ProbeConsumer {
    private ProbeConsumer() {}

    public static void main(String[] args) {
        if (args.length != 1) {
            System.err.println("usage: ProbeConsumer DIRECTORY");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        Database.build(dir, 3);
        try (Database db = Database.open(dir)) {
            Position p = Position.fromFen("B:W28:BK26");
            System.out.println("java: " + db.probeWld(p) + " in " + db.probeDtw(p).getAsInt() + " plies, best move "
                    + db.probe(p).bestMove().orElse("-"));
        }
    }
}
