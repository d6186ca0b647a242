-- One page's pairs cut from a stored day set (portable roaring format, see src/analytics/store/day-sets.ts) inside
-- the database, so a reader of one page is sent that page's container instead of every page's: the result is a
-- portable bitmap of that one container (the same keys), or NULL when the page has none.
CREATE FUNCTION scribe_page_pairs(pairs bytea, page_key integer) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  -- concatenated: detoasted once here, not at each get_byte below
  b bytea := pairs || '\x'::bytea;
  cookie integer := get_byte(b, 0) + get_byte(b, 1) * 256;
  runs boolean;
  size integer;
  header integer;
  lo integer := 0;
  hi integer;
  mid integer;
  k integer;
  at integer := -1;
  card integer;
  is_run boolean;
  start integer;
  len integer;
  i integer;
BEGIN
  IF cookie = 12347 THEN
    runs := true;
    size := get_byte(b, 2) + get_byte(b, 3) * 256 + 1;
    header := 4 + ((size + 7) >> 3);
  ELSIF cookie = 12346 AND get_byte(b, 2) = 0 AND get_byte(b, 3) = 0 THEN
    runs := false;
    size := get_byte(b, 4) + get_byte(b, 5) * 256 + get_byte(b, 6) * 65536 + get_byte(b, 7) * 16777216;
    header := 8;
  ELSE
    RAISE EXCEPTION 'not a portable roaring bitmap';
  END IF;
  hi := size - 1;
  WHILE lo <= hi LOOP
    mid := (lo + hi) >> 1;
    k := get_byte(b, header + mid * 4) + get_byte(b, header + mid * 4 + 1) * 256;
    IF k < page_key THEN
      lo := mid + 1;
    ELSIF k > page_key THEN
      hi := mid - 1;
    ELSE
      at := mid;
      EXIT;
    END IF;
  END LOOP;
  IF at < 0 THEN
    RETURN NULL;
  END IF;
  card := get_byte(b, header + at * 4 + 2) + get_byte(b, header + at * 4 + 3) * 256 + 1;
  is_run := runs AND ((get_byte(b, 4 + (at >> 3)) >> (at & 7)) & 1) = 1;
  IF NOT runs OR size >= 4 THEN
    i := header + size * 4 + at * 4;
    start := get_byte(b, i) + get_byte(b, i + 1) * 256 + get_byte(b, i + 2) * 65536 + get_byte(b, i + 3) * 16777216;
  ELSE
    -- a small bitmap with runs has no offsets: the sizes of the containers before it
    start := header + size * 4;
    FOR i IN 0 .. at - 1 LOOP
      IF ((get_byte(b, 4 + (i >> 3)) >> (i & 7)) & 1) = 1 THEN
        start := start + 2 + 4 * (get_byte(b, start) + get_byte(b, start + 1) * 256);
      ELSIF get_byte(b, header + i * 4 + 2) + get_byte(b, header + i * 4 + 3) * 256 + 1 > 4096 THEN
        start := start + 8192;
      ELSE
        start := start + 2 * (get_byte(b, header + i * 4 + 2) + get_byte(b, header + i * 4 + 3) * 256 + 1);
      END IF;
    END LOOP;
  END IF;
  len := CASE
    WHEN is_run THEN 2 + 4 * (get_byte(b, start) + get_byte(b, start + 1) * 256)
    WHEN card > 4096 THEN 8192
    ELSE card * 2
  END;
  IF is_run THEN
    -- cookie 12347 with one container, its run flag set; no offsets below four containers
    RETURN '\x3b300000'::bytea || '\x01'::bytea
      || set_byte(set_byte('\x0000'::bytea, 0, page_key & 255), 1, page_key >> 8)
      || set_byte(set_byte('\x0000'::bytea, 0, (card - 1) & 255), 1, (card - 1) >> 8)
      || substring(b FROM start + 1 FOR len);
  END IF;
  -- cookie 12346, one container, its offset 16
  RETURN '\x3a30000001000000'::bytea
    || set_byte(set_byte('\x0000'::bytea, 0, page_key & 255), 1, page_key >> 8)
    || set_byte(set_byte('\x0000'::bytea, 0, (card - 1) & 255), 1, (card - 1) >> 8)
    || '\x10000000'::bytea
    || substring(b FROM start + 1 FOR len);
END
$$;

-- One page's views cut from a stored cell's views (little-endian uint32 pairs (pageId, views), ascending by page; see
-- src/analytics/store/rollups/agent-days.ts): that one pair, or NULL when the page has none.
CREATE FUNCTION scribe_page_views(views bytea, page_id integer) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  b bytea := views || '\x'::bytea;
  lo integer := 0;
  hi integer := length(views) / 8 - 1;
  mid integer;
  p bigint;
BEGIN
  WHILE lo <= hi LOOP
    mid := (lo + hi) >> 1;
    p := get_byte(b, mid * 8) + get_byte(b, mid * 8 + 1) * 256 + get_byte(b, mid * 8 + 2) * 65536
      + get_byte(b, mid * 8 + 3)::bigint * 16777216;
    IF p < page_id THEN
      lo := mid + 1;
    ELSIF p > page_id THEN
      hi := mid - 1;
    ELSE
      RETURN substring(b FROM mid * 8 + 1 FOR 8);
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
