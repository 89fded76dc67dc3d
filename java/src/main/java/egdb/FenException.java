package egdb;

/** A malformed FEN string; the message names the offending token. */
public class FenException extends EgdbException {
    private static final long serialVersionUID = 1L;

    public FenException(String message, int code) {
        super(message, code);
    }
}
