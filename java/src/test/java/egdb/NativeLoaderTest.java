package egdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which folder of the jar holds a platform's libraries, and that the tests load the jar's copy. */
class NativeLoaderTest {
    @Test
    void platformFolders() {
        assertEquals(Optional.of("native/linux-x86_64"), NativeLoader.resourceFolder("Linux", "amd64"));
        assertEquals(Optional.of("native/linux-aarch64"), NativeLoader.resourceFolder("Linux", "aarch64"));
        assertEquals(Optional.of("native/windows-x86_64"), NativeLoader.resourceFolder("Windows 11", "amd64"));
        assertEquals(Optional.of("native/windows-x86"), NativeLoader.resourceFolder("Windows 10", "x86"));
        assertEquals(Optional.of("native/macos-aarch64"), NativeLoader.resourceFolder("Mac OS X", "aarch64"));
        assertEquals(Optional.of("native/macos-x86_64"), NativeLoader.resourceFolder("Mac OS X", "x86_64"));
    }

    @Test
    void unknownPlatformsHaveNoFolder() {
        assertEquals(Optional.empty(), NativeLoader.resourceFolder("SunOS", "amd64"));
        assertEquals(Optional.empty(), NativeLoader.resourceFolder("Linux", "s390x"));
        assertEquals(Optional.empty(), NativeLoader.resourceFolder("", ""));
    }

    @Test
    void testsLoadTheCopyInTheClassPath() {
        // The build puts the CMake build's libraries into target/classes/native/<platform>
        // (pom.xml), and surefire passes no java.library.path: the jar's mechanism must work.
        assertTrue(Native.version().startsWith("0."), Native.version());
        String expected = System.getProperty("egdb.library", "").isEmpty() ? "jar:native/" : "egdb.library=";
        assertTrue(NativeLoader.loadedFrom().startsWith(expected), NativeLoader.loadedFrom());
    }
}
