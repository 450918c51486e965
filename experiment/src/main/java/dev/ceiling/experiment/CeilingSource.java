package dev.ceiling.experiment;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Whose reading a delay sweep's ceiling is where it is not the worker's rate: the fit reads the
 * cells' client-side ceilings on a relay that maps no worker metric. A field of this type is null
 * (left out of the JSON) where the worker's rate is the ceiling, as in every file written before
 * it; the file says {@code "client"}, the code decides on the type.
 */
public enum CeilingSource {
  /** The accepted rate of a cell steady and saturated from the client. */
  @JsonProperty("client")
  CLIENT
}
