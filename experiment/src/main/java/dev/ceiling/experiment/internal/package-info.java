/**
 * Not API: helpers of this module only. Other modules do not import this package (the build's
 * module boundaries keep them apart), and it changes without notice. Use the enclosing package's
 * public types instead.
 */
package dev.ceiling.experiment.internal;
