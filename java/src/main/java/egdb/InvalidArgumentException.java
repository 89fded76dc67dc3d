package egdb;

/** An argument out of range: piece counts, an index, a colour. */
public class InvalidArgumentException extends EgdbException {
    private static final long serialVersionUID = 1L;

    public InvalidArgumentException(String message, int code) {
        super(message, code);
    }
}
