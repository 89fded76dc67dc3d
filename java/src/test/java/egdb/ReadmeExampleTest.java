package egdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Java example of README.md compiles and runs as written. */
class ReadmeExampleTest {
    @Test
    void readmeExampleRuns(@TempDir Path work) throws Exception {
        Path readme = Path.of(System.getProperty("egdb.readme", "../README.md"));
        String text = Files.readString(readme);
        Matcher section = Pattern.compile("(?ms)^### Java\\n(.*?)(?=^##|\\z)").matcher(text);
        assertTrue(section.find(), "README.md has no '### Java' section");
        Matcher block = Pattern.compile("(?s)```java\\n(.*?)```").matcher(section.group(1));
        assertTrue(block.find(), "the Java section of README.md has no ```java example");

        Path source = work.resolve("Example.java");
        Files.writeString(source, block.group(1));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        String classpath = Path.of(Database.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        int rc = javac.run(null, null, null, "-classpath", classpath, "-d", work.toString(), source.toString());
        assertEquals(0, rc, "the README example does not compile");

        PrintStream saved = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        try (URLClassLoader loader = new URLClassLoader(new URL[] {work.toUri().toURL()}, getClass().getClassLoader())) {
            Method main = loader.loadClass("Example").getMethod("main", String[].class);
            System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
            main.invoke(null, (Object) new String[] {work.resolve("db3").toString()});
        } finally {
            System.setOut(saved);
        }
        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
        assertEquals("LOSS", lines.get(0));
    }
}
