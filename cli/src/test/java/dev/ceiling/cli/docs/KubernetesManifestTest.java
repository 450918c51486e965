package dev.ceiling.cli.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.generator.Segment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * docs/examples/kubernetes/generator-job.yaml, rendered for N = 4 as docs/SCALE_OUT.md renders it
 * (envsubst of the listed ${NAME}s), parsed as YAML, and run the way the Job controller would: for
 * every completion index, the container's args with Kubernetes' $(NAME) expansion of its env. The
 * segments the pods ask for must be 0/4..3/4, each exactly once, all with one start instant. No
 * cluster is needed, and none exists here.
 */
class KubernetesManifestTest {
  static final Path MANIFEST =
      Path.of("..", "docs", "examples", "kubernetes", "generator-job.yaml");

  /** What docs/SCALE_OUT.md exports before envsubst. */
  static Map<String, String> values(int n) {
    Map<String, String> v = new LinkedHashMap<>();
    v.put("RUN_ID", "r1");
    v.put("SEGMENTS", Integer.toString(n));
    v.put("START_AT", "2026-12-01T12:00:00Z");
    v.put("TARGET", "url=ws://relay.example:7777/,rate=40000,conns=8");
    v.put("DURATION", "60s");
    v.put("WARMUP", "10s");
    v.put("IMAGE", "registry.example/ceiling-generator:0.1.0");
    v.put("CPU", "2");
    return v;
  }

  /** envsubst with an explicit list: only these ${NAME}s change; $(...) and $$ stay. */
  static String render(String template, Map<String, String> values) {
    String out = template;
    for (Map.Entry<String, String> e : values.entrySet()) {
      out = out.replace("${" + e.getKey() + "}", e.getValue());
    }
    return out;
  }

  /** Kubernetes' expansion in args: $$ is a literal $, $(NAME) the env value (left if unknown). */
  static String expand(String s, Map<String, String> env) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '$' && i + 1 < s.length() && s.charAt(i + 1) == '$') {
        out.append('$');
        i++;
      } else if (c == '$' && i + 1 < s.length() && s.charAt(i + 1) == '(') {
        int end = s.indexOf(')', i);
        String name = s.substring(i + 2, end);
        if (name.matches("[A-Za-z_][A-Za-z0-9_]*") && env.containsKey(name)) {
          out.append(env.get(name));
          i = end;
        } else {
          out.append(c);
        }
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /** The start instant and segment each completion index runs. */
  record Pod(int index, Segment segment, String startAt) {}

  /** Everything the Job would run, from a rendered manifest. */
  @SuppressWarnings("unchecked")
  static List<Pod> pods(String rendered) {
    Map<String, Object> job = new Yaml().load(rendered);
    assertThat(job.get("kind")).isEqualTo("Job");
    Map<String, Object> spec = (Map<String, Object>) job.get("spec");
    assertThat(spec.get("completionMode")).isEqualTo("Indexed");
    int completions = (Integer) spec.get("completions");
    // Every segment at once: a pod queued behind another would miss the shared start instant.
    assertThat(spec.get("parallelism")).isEqualTo(completions);
    assertThat(spec.get("backoffLimit")).isEqualTo(0);
    Map<String, Object> pod =
        (Map<String, Object>) ((Map<String, Object>) spec.get("template")).get("spec");
    assertThat(pod.get("restartPolicy")).isEqualTo("Never");
    Map<String, Object> c = ((List<Map<String, Object>>) pod.get("containers")).get(0);
    Map<String, String> env = new HashMap<>();
    for (Map<String, Object> e : (List<Map<String, Object>>) c.get("env")) {
      if (e.containsKey("value")) {
        env.put((String) e.get("name"), String.valueOf(e.get("value")));
      }
    }
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < completions; i++) {
      Map<String, String> podEnv = new HashMap<>(env);
      // What the downward API entry resolves to on the pod of completion index i.
      podEnv.put("JOB_COMPLETION_INDEX", Integer.toString(i));
      String script = expand(String.join(" ", (List<String>) c.get("args")), podEnv);
      pods.add(
          new Pod(i, Segment.parse(option(script, "--segment")), option(script, "--start-at")));
    }
    return pods;
  }

  static String option(String script, String name) {
    Matcher m = Pattern.compile(Pattern.quote(name) + " \"([^\"]*)\"").matcher(script);
    assertThat(m.find()).as("%s in: %s", name, script).isTrue();
    return m.group(1);
  }

  /** Segments 0/n..n-1/n, each exactly once, one start instant for all. */
  static void assertCoversEachSegmentOnce(List<Pod> pods, int n, String startAt) {
    List<Integer> seen = new ArrayList<>();
    for (Pod p : pods) {
      assertThat(p.segment().count()).as("segment count of pod %d", p.index()).isEqualTo(n);
      assertThat(p.startAt()).isEqualTo(startAt);
      seen.add(p.segment().index());
    }
    assertThat(seen).as("segment indices").containsExactlyInAnyOrderElementsOf(range(n));
  }

  static List<Integer> range(int n) {
    List<Integer> r = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      r.add(i);
    }
    return r;
  }

  static String template() throws Exception {
    return Files.readString(MANIFEST);
  }

  @Test
  void renderedForFourTheJobRunsSegmentsZeroToThreeEachOnce() throws Exception {
    String rendered = render(template(), values(4));
    assertThat(rendered).as("every ${NAME} is one docs/SCALE_OUT.md fills in").doesNotContain("${");
    assertCoversEachSegmentOnce(pods(rendered), 4, "2026-12-01T12:00:00Z");
    // The other things the runbook relies on.
    assertThat(rendered)
        .contains("--allow-remote", "--json /tmp/segment.json", "printf 'CEILING_REPORT %s\\n'");
  }

  @Test
  void aManifestWithThreeCompletionsForFourSegmentsIsCaught() throws Exception {
    String rendered = render(template(), values(4));
    String mutant = rendered.replace("completions: 4", "completions: 3");
    assertThat(mutant).isNotEqualTo(rendered);
    // parallelism still 4: caught by parallelism = completions; with both 3, by the coverage.
    assertThatThrownBy(() -> pods(mutant)).isInstanceOf(AssertionError.class);
    String both = mutant.replace("parallelism: 4", "parallelism: 3");
    assertThatThrownBy(() -> assertCoversEachSegmentOnce(pods(both), 4, "2026-12-01T12:00:00Z"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("segment indices");
  }

  @Test
  void aManifestThatUsesTheIndexAsTheCountIsCaught() throws Exception {
    String mutant =
        render(template(), values(4))
            .replace("\"$(JOB_COMPLETION_INDEX)/$(SEGMENTS)\"", "\"0/$(SEGMENTS)\"");
    assertThatThrownBy(() -> assertCoversEachSegmentOnce(pods(mutant), 4, "2026-12-01T12:00:00Z"))
        .isInstanceOf(AssertionError.class);
  }
}
