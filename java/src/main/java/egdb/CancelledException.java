package egdb;

/** A build or verification was cancelled by its progress listener. */
public class CancelledException extends EgdbException {
    private static final long serialVersionUID = 1L;

    public CancelledException(String message, int code) {
        super(message, code);
    }
}
