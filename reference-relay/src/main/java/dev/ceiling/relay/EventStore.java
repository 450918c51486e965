package dev.ceiling.relay;

import com.fasterxml.jackson.databind.JsonNode;
import dev.ceiling.nostr.NostrEvent;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Accepted events in memory, per community, for duplicate detection and REQ read-back. Bounded:
 * past {@code capacity} events per community the oldest is evicted (and a re-sent evicted event is
 * no longer a duplicate — documented, acceptable for a test relay).
 *
 * <p>Thread-safe: one lock per community.
 */
final class EventStore {
  /** Largest number of events one REQ filter returns. */
  static final int MAX_LIMIT = 5_000;

  private final int capacity;
  private final Map<String, Map<String, NostrEvent>> byCommunity = new java.util.HashMap<>();

  EventStore(List<String> communities, int capacity) {
    this.capacity = capacity;
    for (String c : communities) {
      byCommunity.put(c, newMap());
    }
  }

  private Map<String, NostrEvent> newMap() {
    return new LinkedHashMap<>(1024, 0.75f, false) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<String, NostrEvent> eldest) {
        return size() > capacity;
      }
    };
  }

  private Map<String, NostrEvent> map(String community) {
    synchronized (byCommunity) {
      return byCommunity.computeIfAbsent(community, c -> newMap());
    }
  }

  /** Stores the event; false when an event with this id is already stored (a duplicate). */
  boolean add(String community, NostrEvent e) {
    Map<String, NostrEvent> m = map(community);
    synchronized (m) {
      return m.putIfAbsent(e.id(), e) == null;
    }
  }

  /** Removes an event whose acceptance failed after it was stored. */
  void remove(String community, String id) {
    Map<String, NostrEvent> m = map(community);
    synchronized (m) {
      m.remove(id);
    }
  }

  /**
   * Events matching one NIP-01 filter (ids, authors, kinds, since, until, limit; exact ids and
   * authors, no prefixes), newest stored first, at most {@code limit} (default and cap {@link
   * #MAX_LIMIT}).
   *
   * @throws IllegalArgumentException when the filter is not an object or a field has the wrong type
   */
  List<NostrEvent> query(String community, JsonNode filter) {
    if (!filter.isObject()) {
      throw new IllegalArgumentException("filter must be a JSON object");
    }
    Set<String> ids = strings(filter, "ids");
    Set<String> authors = strings(filter, "authors");
    Set<Integer> kinds = null;
    if (filter.has("kinds")) {
      kinds = new HashSet<>();
      for (JsonNode k : array(filter, "kinds")) {
        if (!k.canConvertToInt()) {
          throw new IllegalArgumentException("kinds must hold integers");
        }
        kinds.add(k.asInt());
      }
    }
    long since = filter.has("since") ? filter.get("since").asLong() : Long.MIN_VALUE;
    long until = filter.has("until") ? filter.get("until").asLong() : Long.MAX_VALUE;
    int limit =
        filter.has("limit")
            ? Math.min(MAX_LIMIT, Math.max(0, filter.get("limit").asInt()))
            : MAX_LIMIT;
    List<NostrEvent> snapshot;
    Map<String, NostrEvent> m = map(community);
    synchronized (m) {
      snapshot = new ArrayList<>(m.values());
    }
    List<NostrEvent> out = new ArrayList<>();
    for (int i = snapshot.size() - 1; i >= 0 && out.size() < limit; i--) {
      NostrEvent e = snapshot.get(i);
      if ((ids == null || ids.contains(e.id()))
          && (authors == null || authors.contains(e.pubkey()))
          && (kinds == null || kinds.contains(e.kind()))
          && e.createdAt() >= since
          && e.createdAt() <= until) {
        out.add(e);
      }
    }
    return out;
  }

  private static Iterable<JsonNode> array(JsonNode filter, String field) {
    JsonNode a = filter.get(field);
    if (!a.isArray()) {
      throw new IllegalArgumentException(field + " must be an array");
    }
    List<JsonNode> out = new ArrayList<>();
    for (Iterator<JsonNode> it = a.elements(); it.hasNext(); ) {
      out.add(it.next());
    }
    return out;
  }

  private static Set<String> strings(JsonNode filter, String field) {
    if (!filter.has(field)) {
      return null;
    }
    Set<String> out = new HashSet<>();
    for (JsonNode s : array(filter, field)) {
      if (!s.isTextual()) {
        throw new IllegalArgumentException(field + " must hold strings");
      }
      out.add(s.asText());
    }
    return out;
  }
}
