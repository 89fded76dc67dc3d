package egdb;

/** Base class of the exceptions of egdb; {@link #code()} is the C interface's error code. */
public class EgdbException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int code;

    public EgdbException(String message, int code) {
        super(message);
        this.code = code;
    }

    /** The negative error code of {@code egdb.h} (for example -109 for a missing table). */
    public int code() {
        return code;
    }
}
