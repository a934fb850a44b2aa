-- 0001: saved places and the two histories.
--
-- Conventions for every migration in this directory:
--   * Times are REAL seconds since 2001-01-01T00:00:00Z (Foundation's reference date), so a
--     Swift Date round-trips bit for bit. In SQL: datetime(t + 978307200, 'unixepoch').
--   * A place is stored as (name, latitude, longitude, kind); its id "<name>@<lat>,<lon>"
--     (seven decimals) is derived from those, and stored only where it is a key.
--   * kind is PlaceKind's raw value ('address', 'street', 'poi', 'transit_stop', 'saved') or NULL.
--   * No URL is ever stored: links (Google Maps, time-stamped or not) are rebuilt from the
--     stored places and times when they are needed.

-- A place the user saved under a name of their own ("Home"). The CLI refers to saved places
-- by that name, so it is unique; the same place cannot be saved twice either.
CREATE TABLE saved_place (
    id            INTEGER PRIMARY KEY,
    name          TEXT NOT NULL UNIQUE CHECK (length(name) > 0),
    place_id      TEXT NOT NULL UNIQUE,
    place_name    TEXT NOT NULL,
    latitude      REAL NOT NULL,
    longitude     REAL NOT NULL,
    kind          TEXT,
    note          TEXT,
    created_at    REAL NOT NULL,
    updated_at    REAL NOT NULL
);

-- What the user searched for, and the place they picked if any. entry_id de-duplicates:
-- re-adding an entry deletes the old row and inserts a new one, so the AUTOINCREMENT
-- sequence orders entries newest first. At most 20 rows are kept (enforced by the store
-- in the same transaction as the insert).
CREATE TABLE search_history (
    sequence      INTEGER PRIMARY KEY AUTOINCREMENT,
    entry_id      TEXT NOT NULL UNIQUE,
    query         TEXT NOT NULL,
    place_name    TEXT,
    latitude      REAL,
    longitude     REAL,
    kind          TEXT,
    recorded_at   REAL NOT NULL,
    CHECK ((place_name IS NULL) = (latitude IS NULL) AND (latitude IS NULL) = (longitude IS NULL))
);

-- Routes the user asked for: from → to and the modes of its segments (comma-separated
-- TravelMode raw values, e.g. 'walk,transit'). Same de-duplication and cap as searches.
CREATE TABLE route_history (
    sequence        INTEGER PRIMARY KEY AUTOINCREMENT,
    entry_id        TEXT NOT NULL UNIQUE,
    from_name       TEXT NOT NULL,
    from_latitude   REAL NOT NULL,
    from_longitude  REAL NOT NULL,
    from_kind       TEXT,
    to_name         TEXT NOT NULL,
    to_latitude     REAL NOT NULL,
    to_longitude    REAL NOT NULL,
    to_kind         TEXT,
    modes           TEXT NOT NULL,
    recorded_at     REAL NOT NULL
);
