package egdb;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Loads the native library {@code egdb_jni} (and {@code egdb}, which it links), in this order:
 *
 * <ol>
 *   <li>the file named by the system property {@code egdb.library}, when it is set;
 *   <li>the copies the jar carries under {@code native/<os>-<arch>/} (for example
 *       {@code native/linux-x86_64/libegdb_jni.so}), extracted on first use into a new temporary
 *       directory below {@code java.io.tmpdir} and loaded from there;
 *   <li>{@code System.loadLibrary("egdb_jni")}, which searches {@code java.library.path}.
 * </ol>
 *
 * <p>A jar built without the libraries of this platform therefore still works where they are
 * installed, as zstd-jni and sqlite-jdbc do.
 */
final class NativeLoader {
    /** The names of the libraries in the jar, in the order they are loaded (dependencies first). */
    static final List<String> LIBRARIES = List.of("egdb", "egdb_jni");

    private static String loadedFrom = "";

    private NativeLoader() {}

    /** Loads the library once per class loader; called from {@link Native}'s static initializer. */
    static synchronized void load() {
        if (!loadedFrom.isEmpty()) {
            return;
        }
        String explicit = System.getProperty("egdb.library");
        if (explicit != null && !explicit.isEmpty()) {
            System.load(explicit);
            loadedFrom = "egdb.library=" + explicit;
            return;
        }
        Optional<String> folder = resourceFolder(System.getProperty("os.name", ""), System.getProperty("os.arch", ""));
        UnsatisfiedLinkError bundledFailure = null;
        if (folder.isPresent() && NativeLoader.class.getResource(resource(folder.get(), "egdb_jni")) != null) {
            try {
                Path directory = extract(folder.get());
                for (String name : LIBRARIES) {
                    System.load(directory.resolve(System.mapLibraryName(name)).toString());
                }
                loadedFrom = "jar:" + folder.get() + " -> " + directory;
                return;
            } catch (IOException e) {
                bundledFailure = new UnsatisfiedLinkError("cannot extract the egdb native libraries from the jar ("
                        + folder.get() + ") into " + System.getProperty("java.io.tmpdir") + ": " + e.getMessage());
            } catch (UnsatisfiedLinkError e) {
                bundledFailure = e;
            }
        }
        try {
            System.loadLibrary("egdb_jni");
            loadedFrom = "java.library.path";
        } catch (UnsatisfiedLinkError e) {
            String platform = folder.orElse("<unsupported: os.name=" + System.getProperty("os.name") + ", os.arch="
                    + System.getProperty("os.arch") + ">");
            UnsatisfiedLinkError error = new UnsatisfiedLinkError("egdb: no native library for " + platform
                    + (bundledFailure != null ? " (the one in the jar failed: " + bundledFailure.getMessage() + ")"
                                              : " in the jar")
                    + ", and none on java.library.path (" + e.getMessage()
                    + "); set -Degdb.library=/path/to/" + System.mapLibraryName("egdb_jni"));
            if (bundledFailure != null) {
                error.addSuppressed(bundledFailure);
            }
            throw error;
        }
    }

    /** Where the library came from: "egdb.library=...", "jar:... -> dir" or "java.library.path". */
    static synchronized String loadedFrom() {
        return loadedFrom;
    }

    /**
     * The jar's folder for a platform, {@code native/<os>-<arch>}, from the values of the system
     * properties {@code os.name} and {@code os.arch}; empty for a platform without a name here.
     */
    static Optional<String> resourceFolder(String osName, String osArch) {
        String name = osName.toLowerCase(Locale.ROOT);
        String os;
        if (name.startsWith("linux")) {
            os = "linux";
        } else if (name.startsWith("windows")) {
            os = "windows";
        } else if (name.startsWith("mac") || name.startsWith("darwin")) {
            os = "macos";
        } else {
            return Optional.empty();
        }
        String arch = switch (osArch.toLowerCase(Locale.ROOT)) {
            case "amd64", "x86_64", "x64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            case "x86", "i386", "i486", "i586", "i686" -> "x86";
            default -> "";
        };
        if (arch.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("native/" + os + "-" + arch);
    }

    private static String resource(String folder, String library) {
        return "/" + folder + "/" + System.mapLibraryName(library);
    }

    /** Copies the platform's libraries into a new temporary directory, removed when the JVM exits. */
    private static Path extract(String folder) throws IOException {
        Path directory = Files.createTempDirectory("egdb-native-");
        directory.toFile().deleteOnExit();
        for (String name : LIBRARIES) {
            String path = resource(folder, name);
            Path target = directory.resolve(System.mapLibraryName(name));
            try (InputStream in = NativeLoader.class.getResourceAsStream(path)) {
                if (in == null) {
                    throw new IOException(path + " is missing from the jar");
                }
                Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
            }
            // Registered after the directory, so deleted before it (deleteOnExit runs in reverse).
            target.toFile().deleteOnExit();
        }
        return directory;
    }
}
