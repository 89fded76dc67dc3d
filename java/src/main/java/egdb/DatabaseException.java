package egdb;

/** The database cannot be opened, is closed, fails verification, or an I/O error occurred. */
public class DatabaseException extends EgdbException {
    private static final long serialVersionUID = 1L;

    public DatabaseException(String message, int code) {
        super(message, code);
    }
}
