package egdb;

/** The database cannot answer: too many pieces, a missing slice, or no data of the kind asked for. */
public class MissingTableException extends EgdbException {
    private static final long serialVersionUID = 1L;

    public MissingTableException(String message, int code) {
        super(message, code);
    }
}
