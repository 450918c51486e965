package dev.ceiling.cli.report;

import dev.ceiling.core.json.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Properties;

/**
 * The report pages' interactive charts. A chart is data (axes, series, points, and for each point
 * the figures its tooltip shows); the page carries that data as JSON in a {@code <script
 * type="application/json">} element, and uPlot (MIT, from the {@code org.webjars.npm:uplot} jar on
 * the CLI's classpath) plus a small renderer, both inlined once per page by {@link #library()},
 * draw it in the browser. Nothing is fetched: a page opens offline years later as it did on the
 * day. Charts only draw what they are given; the pages decide what a point is and what its tooltip
 * says.
 */
final class Charts {
  /** An axis's scale and how its ticks read. */
  enum Axis {
    /** Linear, fitted to the data. */
    LINEAR,
    /**
     * Linear from zero: a line through the origin and one with an intercept must look different.
     */
    LINEAR_FROM_ZERO,
    /**
     * Logarithmic milliseconds, ticks labelled "3 ms": latencies span fractions of a millisecond
     * below the knee and seconds above it, which a linear axis flattens into the floor.
     */
    LOG_MS,
    /**
     * Logarithmic counts, ticks labelled with the number at 1, 2 and 5 of each decade: a grid of
     * signing keys from 1 to 1,000 puts its small N, where the limiter binds, beside its large N.
     */
    LOG,
    /**
     * HdrHistogram's percentile-distribution axis: x = 1 / (1 - p), logarithmic, ticks labelled
     * "99.9%", so each further nine of the tail gets the same width as the one before.
     */
    PERCENTILE
  }

  /** How a series is drawn. */
  enum Draw {
    /** Markers only: measured cells. */
    POINTS,
    /** Markers joined by a line, in x order: a figure per rate. */
    LINE_AND_POINTS,
    /** A plain line: a fitted model. */
    LINE,
    /** A dashed line: a reference to compare the fit with. */
    DASHED_LINE
  }

  /** One labelled figure of a point's tooltip, e.g. {@code accepted/offered = 0.9731}. */
  record Tip(String label, String value) {
    Tip {
      Objects.requireNonNull(label, "tip label must not be null");
      Objects.requireNonNull(value, "tip value must not be null");
    }
  }

  /**
   * A drawn point and what hovering it shows. Coordinates must be finite: JSON has no NaN, and a
   * point that cannot be placed must be left out by its page, saying so, not drawn at zero.
   */
  record Point(double x, double y, List<Tip> tip) {
    Point {
      if (!Double.isFinite(x) || !Double.isFinite(y)) {
        throw new IllegalArgumentException(
            "a chart point needs finite coordinates, got (" + x + ", " + y + ")");
      }
      tip = List.copyOf(tip);
    }
  }

  /**
   * A named series; {@code colour} indexes the palette so that an arm's cells and its means share
   * one colour.
   */
  record Series(String name, Draw draw, int colour, List<Point> points) {
    Series {
      Objects.requireNonNull(name, "series name must not be null");
      Objects.requireNonNull(draw, "series draw must not be null");
      points = List.copyOf(points);
    }
  }

  /** One chart: its caption, both axes and its series. */
  record Chart(
      String title, String xLabel, Axis xAxis, String yLabel, Axis yAxis, List<Series> series) {
    Chart {
      Objects.requireNonNull(title, "chart title must not be null");
      series = List.copyOf(series);
    }
  }

  private static final String WEBJAR = "META-INF/resources/webjars/uplot/";
  private static final String POM_PROPERTIES =
      "META-INF/maven/org.webjars.npm/uplot/pom.properties";

  /** The uPlot version on the classpath, read from the webjar's own Maven metadata. */
  static final String UPLOT_VERSION = uplotVersion();

  private static final String LIBRARY = buildLibrary();

  private Charts() {}

  /**
   * The chart's figure: a caption, the element uPlot draws into, and the data. The caption is HTML
   * so that it wraps on a phone, which a title drawn on the canvas would not.
   */
  static String chart(Chart c) {
    return "<figure class=\"chart\"><figcaption>"
        + HtmlReport.esc(c.title())
        + "</figcaption><div class=\"plot\"></div>"
        + "<script type=\"application/json\" class=\"ceiling-chart\">"
        + scriptJson(c)
        + "</script><noscript><p>This chart needs JavaScript; the tables below hold the same"
        + " figures.</p></noscript></figure>\n";
  }

  /**
   * JSON that is safe as the text of a {@code <script>} element: {@code <}, {@code >} and {@code &}
   * become {@code \\u} escapes, so no string from a file (an arm's name, a problem message) can
   * close the element or open a comment, and the line separators that some parsers treat as line
   * ends are escaped too. Inside JSON strings these escapes mean the same characters; outside
   * strings JSON never contains them.
   */
  static String scriptJson(Object value) {
    String json = Json.writeLine(value);
    StringBuilder b = new StringBuilder(json.length() + 16);
    for (int i = 0; i < json.length(); i++) {
      char ch = json.charAt(i);
      switch (ch) {
        case '<', '>', '&', '\u2028', '\u2029' ->
            b.append(String.format(Locale.ROOT, "\\u%04x", (int) ch));
        default -> b.append(ch);
      }
    }
    return b.toString();
  }

  /**
   * uPlot's stylesheet and script with its MIT notice, and the renderer, once per page, after the
   * last chart: every chart's data is then in the DOM when the renderer looks for it.
   */
  static String library() {
    return LIBRARY;
  }

  private static String uplotVersion() {
    Properties p = new Properties();
    try (InputStream in = resource(POM_PROPERTIES)) {
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + POM_PROPERTIES, e);
    }
    return Objects.requireNonNull(p.getProperty("version"), POM_PROPERTIES + " has no version");
  }

  private static String buildLibrary() {
    String dir = WEBJAR + UPLOT_VERSION + "/";
    String licence = text(dir + "LICENSE");
    String js = text(dir + "dist/uPlot.iife.min.js");
    String css = text(dir + "dist/uPlot.min.css");
    for (String[] part :
        new String[][] {{"uPlot.iife.min.js", js}, {"uPlot.min.css", css}, {"LICENSE", licence}}) {
      // Inlined verbatim, so a sequence that would end the element early must not be there.
      String lower = part[1].toLowerCase(Locale.ROOT);
      if (lower.contains("</script") || lower.contains("</style") || lower.contains("<!--")) {
        throw new IllegalStateException(
            "uPlot " + UPLOT_VERSION + "'s " + part[0] + " cannot be inlined: it holds an end tag");
      }
    }
    if (licence.contains("*/")) {
      throw new IllegalStateException("uPlot's LICENSE cannot go into a comment: it holds */");
    }
    return "<style>"
        + css
        + STYLE
        + "</style>\n<script>/* uPlot "
        + UPLOT_VERSION
        + ", inlined so that this page needs no network.\n"
        + licence
        + "*/\n"
        + js
        + "</script>\n<script>"
        + RENDERER
        + "</script>\n";
  }

  private static InputStream resource(String name) {
    InputStream in = Charts.class.getClassLoader().getResourceAsStream(name);
    if (in == null) {
      throw new IllegalStateException(
          name + " is not on the classpath: the CLI needs org.webjars.npm:uplot for its charts");
    }
    return in;
  }

  private static String text(String name) {
    try (InputStream in = resource(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + name, e);
    }
  }

  /** The charts' own style: the figure never wider than the page, the tooltip above the plot. */
  private static final String STYLE =
      "figure.chart{margin:1em 0;max-width:100%}"
          + "figure.chart figcaption{font-weight:bold;font-size:14px;margin-bottom:4px}"
          + ".ceiling-tip{position:absolute;z-index:10;pointer-events:none;background:#fff;"
          + "border:1px solid #888;border-radius:3px;padding:4px 6px;font-size:12px;"
          + "line-height:1.3;white-space:nowrap;box-shadow:0 1px 4px rgba(0,0,0,.25)}"
          + ".ceiling-tip b{display:block}.ceiling-tip .cell+.cell{border-top:1px solid #ddd;"
          + "margin-top:3px;padding-top:3px}"
          + ".u-legend{font-size:12px}.u-legend .u-series{padding:1px 6px}";

  /**
   * Draws every chart's data with uPlot in faceted mode (each series its own x and y, so repeats at
   * one rate are separate points), and shows, on hover, the figures of the point nearest the
   * pointer within 20 px, with every other point drawn on the same spot (repeats that measured the
   * same value). Tooltips are built with textContent, never innerHTML: the figures come from files.
   * Each chart is kept in window.ceilingCharts for the browser test.
   */
  private static final String RENDERER =
      """
      (function(){
      var PALETTE=['#c0392b','#2471a3','#7d3c98','#229954','#d68910','#17202a','#e67e22','#5d6d7e'];
      function num(v){var a=Math.abs(v);return a>=100?String(Math.round(v)):String(+v.toPrecision(3));}
      function isPow10(v){var l=Math.log10(v);return Math.abs(l-Math.round(l))<1e-9;}
      function leading(v){return +String(v.toExponential()).charAt(0);}
      function ticks(kind){
        if(kind==='LOG_MS')return function(u,vals){return vals.map(function(v){
          return v==null?'':(isPow10(v)||leading(v)===2||leading(v)===5)?num(v)+' ms':'';});};
        if(kind==='LOG')return function(u,vals){return vals.map(function(v){
          return v==null?'':(isPow10(v)||leading(v)===2||leading(v)===5)?num(v):'';});};
        if(kind==='PERCENTILE')return function(u,vals){return vals.map(function(v){
          return v==null||!isPow10(v)?'':+(100*(1-1/v)).toPrecision(6)+'%';});};
        return function(u,vals){return vals.map(function(v){return v==null?'':num(v);});};
      }
      function scale(kind){
        if(kind==='LOG_MS'||kind==='LOG'||kind==='PERCENTILE')return {distr:3,log:10,time:false};
        // Zero in view, and a sliver below it so that a marker at zero is not cut by the axis.
        if(kind==='LINEAR_FROM_ZERO')return {time:false,range:function(u,min,max){
          var r=uPlot.rangeNum(Math.min(0,min),Math.max(0,max),0.1,true);
          return [r[0]-0.03*(r[1]-r[0]),r[1]];}};
        return {time:false,range:function(u,min,max){return uPlot.rangeNum(min,max,0.1,true);}};
      }
      // In faceted mode uPlot draws no markers of its own (its marker pass follows the shared x
      // index, which faceted data lacks), so markers are drawn as the series' path: circles for
      // cells, a line with filled circles for a figure per rate.
      function withMarks(line){var marks=uPlot.paths.points();
        return function(u,si,i0,i1){var l=line(u,si,i0,i1),m=marks(u,si,i0,i1);
          var st=new Path2D();if(l&&l.stroke)st.addPath(l.stroke);
          return {stroke:st,fill:m.fill,clip:m.clip,flags:m.flags};};}
      function seriesOpts(s){
        var c=PALETTE[s.colour%PALETTE.length];
        var o={label:s.name,stroke:c,width:s.draw==='POINTS'?1:1.6,
          points:{show:false,size:s.draw==='POINTS'?8:7,width:1},
          facets:[{scale:'x',auto:true},{scale:'y',auto:true}]};
        if(s.draw==='POINTS'){o.paths=uPlot.paths.points();o.fill=c+'99';}
        if(s.draw==='LINE_AND_POINTS'){o.paths=withMarks(uPlot.paths.linear());o.fill=c;}
        if(s.draw==='DASHED_LINE')o.dash=[6,4];
        return o;
      }
      function size(el){var w=Math.max(200,Math.floor(el.clientWidth));
        return {width:w,height:Math.round(Math.min(380,Math.max(240,w*0.55)))};}
      function nearby(u,spec,left,top){
        var best=null,bd=Infinity,all=[];
        spec.series.forEach(function(s,si){
          if(!u.series[si+1].show)return;
          s.points.forEach(function(p){
            if(!p.tip||!p.tip.length)return;
            var px=u.valToPos(p.x,'x'),py=u.valToPos(p.y,'y');
            var d=Math.hypot(px-left,py-top);
            all.push({s:s,p:p,px:px,py:py});
            if(d<bd){bd=d;best={px:px,py:py};}
          });
        });
        if(best==null||bd>20)return null;
        return {at:best,hits:all.filter(function(h){
          return Math.hypot(h.px-best.px,h.py-best.py)<=4;}).slice(0,8)};
      }
      function tipFor(u,spec,tip){
        return function(){
          var l=u.cursor.left,t=u.cursor.top;
          var n=(l==null||l<0)?null:nearby(u,spec,l,t);
          if(n==null){tip.style.display='none';tip.removeAttribute('data-cells');return;}
          tip.textContent='';
          n.hits.forEach(function(h){
            var d=document.createElement('div');d.className='cell';
            var b=document.createElement('b');b.textContent=h.s.name;
            b.style.color=PALETTE[h.s.colour%PALETTE.length];d.appendChild(b);
            h.p.tip.forEach(function(f){var r=document.createElement('div');
              r.textContent=f.label+': '+f.value;d.appendChild(r);});
            tip.appendChild(d);
          });
          tip.setAttribute('data-cells',String(n.hits.length));
          tip.style.display='block';
          var w=u.over.clientWidth,h=u.over.clientHeight;
          var x=n.at.px+12,y=n.at.py+12;
          if(x+tip.offsetWidth>w)x=Math.max(0,n.at.px-12-tip.offsetWidth);
          if(y+tip.offsetHeight>h)y=Math.max(0,n.at.py-12-tip.offsetHeight);
          tip.style.left=x+'px';tip.style.top=y+'px';
        };
      }
      var charts=window.ceilingCharts=[];
      document.querySelectorAll('script.ceiling-chart').forEach(function(el){
        var spec=JSON.parse(el.textContent);
        var box=el.parentNode.querySelector('.plot');
        var data=[null].concat(spec.series.map(function(s){
          return [s.points.map(function(p){return p.x;}),s.points.map(function(p){return p.y;})];}));
        var tip=document.createElement('div');tip.className='ceiling-tip';tip.style.display='none';
        var opts=Object.assign(size(box),{mode:2,
          scales:{x:scale(spec.x_axis),y:scale(spec.y_axis)},
          axes:[{label:spec.x_label,values:ticks(spec.x_axis),space:50},
                {label:spec.y_label,values:ticks(spec.y_axis),space:30,size:56}],
          series:[{}].concat(spec.series.map(seriesOpts)),
          legend:{live:false},
          cursor:{drag:{x:false,y:false,setScale:false},points:{show:false}},
          hooks:{}});
        var u=new uPlot(opts,data,box);
        u.over.appendChild(tip);
        u.hooks.setCursor=[tipFor(u,spec,tip)];
        charts.push({u:u,spec:spec,el:el.parentNode,tip:tip});
      });
      window.addEventListener('resize',function(){charts.forEach(function(c){
        c.u.setSize(size(c.el.querySelector('.plot')));});});
      })();
      """;
}
