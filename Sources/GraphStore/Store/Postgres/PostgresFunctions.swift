/// The SQL functions a PostgreSQL store defines, so that its case-insensitive matching and its
/// `.numericText` order agree with SQLite's (``FoldFunction``, ``NumericTextCollation``).
///
/// PostgreSQL 15 has no Unicode case folding: `graphstore_fold` upper- then lowercases with ICU's
/// full mappings ("ß" → "SS" → "ss", "ſ" → "S" → "s"), on the canonical decomposition, recomposed,
/// with final "ς" as "σ" and capital "ẞ" (which uppercasing keeps, lowercasing makes "ß") as "ss".
/// Compared with SQLite's fold over every code point to U+2FFFF, it differs only where
/// uppercasing merges letters that SQLite's fold keeps apart: Turkish dotless "ı" matches "i"
/// here, and the old Cyrillic letters U+1C80–U+1C88 ("ᲀ") their usual forms ("в").
/// `graphstore_numeric_key` turns each run of digits into its length and significant digits, so
/// that comparing keys byte by byte compares the runs by value, as the collation does.
enum PostgresFunctions {
    static let numericKey = "graphstore_numeric_key"

    static let definitions = [
        """
        CREATE FUNCTION \(FoldFunction.name)(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT normalize(replace(translate(lower(upper(normalize($1, NFD) COLLATE "und-x-icu") COLLATE "und-x-icu"), 'ς', 'σ'), 'ß', 'ss'), NFC) COLLATE "C"
        $$
        """,
        """
        CREATE FUNCTION \(numericKey)(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
        SELECT coalesce(string_agg(CASE WHEN r.m[1] IS NULL THEN r.m[2]
            ELSE '0' || lpad(length(z.s)::text, 10, '0') || z.s END, '' ORDER BY r.n), '') COLLATE "C"
        FROM regexp_matches(\(FoldFunction.name)($1), '([0-9]+)|([^0-9]+)', 'g') WITH ORDINALITY AS r(m, n),
        LATERAL (SELECT coalesce(nullif(ltrim(r.m[1], '0'), ''), '0') AS s) AS z
        $$
        """,
    ]
}
