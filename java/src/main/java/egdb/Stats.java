package egdb;

/** Counters of an open database since it was opened. */
public record Stats(long lookups, long cacheHits, long cacheMisses, long cacheBytes, long files) {}
