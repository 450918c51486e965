package dev.ceiling.cli.report;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Rectangle;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.data.xy.XYIntervalSeries;
import org.jfree.data.xy.XYIntervalSeriesCollection;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;
import org.jfree.svg.ViewBox;

/**
 * Draws the report's charts with JFreeChart and renders them to inline SVG with JFreeSVG, so the
 * HTML report needs no network and no script. Charts only draw what they are given.
 */
final class Charts {
  static final int WIDTH = 760;
  static final int HEIGHT = 380;

  private static final Color[] PALETTE = {
    new Color(0xC0392B),
    new Color(0x2471A3),
    new Color(0x7D3C98),
    new Color(0x229954),
    new Color(0xD68910),
    new Color(0x17202A)
  };

  /** A point with an interval around it; low and high equal y when there is no interval. */
  record Point(double x, double y, double low, double high) {}

  /** A named series of points. */
  record Series(String name, List<Point> points) {}

  private Charts() {}

  /** Points with vertical interval whiskers, joined by lines (e.g. accepted/offered per arm). */
  static String intervals(String title, String xLabel, String yLabel, List<Series> series) {
    XYIntervalSeriesCollection data = new XYIntervalSeriesCollection();
    for (Series s : series) {
      XYIntervalSeries xy = new XYIntervalSeries(s.name());
      for (Point p : s.points()) {
        xy.add(p.x(), p.x(), p.x(), p.y(), p.low(), p.high());
      }
      data.addSeries(xy);
    }
    XYErrorRenderer renderer = new XYErrorRenderer();
    renderer.setDrawXError(false);
    renderer.setDefaultLinesVisible(true);
    renderer.setCapLength(6);
    style(renderer, series.size());
    return render(title, new XYPlot(data, axis(xLabel), axis(yLabel), renderer));
  }

  /** Plain lines with markers on a linear axis (e.g. busy fraction per cell). */
  static String lines(String title, String xLabel, String yLabel, List<Series> series) {
    return lines(title, xLabel, yLabel, series, false);
  }

  /**
   * Plain lines with markers; {@code logY} for latencies, which span milliseconds below the knee
   * and seconds above it, so a linear axis would flatten everything but the saturated rates.
   * Non-positive values cannot be drawn on a log axis and are left out.
   */
  static String lines(
      String title, String xLabel, String yLabel, List<Series> series, boolean logY) {
    XYSeriesCollection data = new XYSeriesCollection();
    for (Series s : series) {
      XYSeries xy = new XYSeries(s.name());
      for (Point p : s.points()) {
        if (!logY || p.y() > 0) {
          xy.add(p.x(), p.y());
        }
      }
      data.addSeries(xy);
    }
    XYLineAndShapeRenderer renderer = new XYLineAndShapeRenderer(true, true);
    style(renderer, series.size());
    org.jfree.chart.axis.ValueAxis y;
    if (logY) {
      org.jfree.chart.axis.LogAxis log = new org.jfree.chart.axis.LogAxis(yLabel);
      log.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
      y = log;
    } else {
      y = axis(yLabel);
    }
    return render(title, new XYPlot(data, axis(xLabel), y, renderer));
  }

  /**
   * Markers without lines for {@code points} (the measured cells), and each of {@code lines} drawn
   * as a plain line without markers (models), on linear axes starting from zero: a line through the
   * origin and one with an intercept must look different.
   */
  static String pointsAndLines(
      String title, String xLabel, String yLabel, Series points, List<Series> lines) {
    XYSeriesCollection measured = new XYSeriesCollection();
    XYSeries xy = new XYSeries(points.name());
    points.points().forEach(p -> xy.add(p.x(), p.y()));
    measured.addSeries(xy);
    XYLineAndShapeRenderer markers = new XYLineAndShapeRenderer(false, true);
    markers.setSeriesPaint(0, PALETTE[1]);
    XYSeriesCollection models = new XYSeriesCollection();
    for (Series line : lines) {
      XYSeries model = new XYSeries(line.name());
      line.points().forEach(p -> model.add(p.x(), p.y()));
      models.addSeries(model);
    }
    XYLineAndShapeRenderer plain = new XYLineAndShapeRenderer(true, false);
    for (int i = 0; i < lines.size(); i++) {
      plain.setSeriesPaint(i, i == 0 ? PALETTE[0] : PALETTE[2 + (i - 1) % (PALETTE.length - 2)]);
      // The first line is the fit; the others are references, dashed.
      plain.setSeriesStroke(
          i,
          i == 0
              ? new BasicStroke(1.6f)
              : new BasicStroke(
                  1.4f,
                  BasicStroke.CAP_BUTT,
                  BasicStroke.JOIN_MITER,
                  10f,
                  new float[] {6f, 4f},
                  0f));
    }
    NumberAxis x = axis(xLabel);
    NumberAxis y = axis(yLabel);
    x.setAutoRangeIncludesZero(true);
    y.setAutoRangeIncludesZero(true);
    XYPlot plot = new XYPlot(measured, x, y, markers);
    plot.setDataset(1, models);
    plot.setRenderer(1, plain);
    return render(title, plot);
  }

  private static NumberAxis axis(String label) {
    NumberAxis axis = new NumberAxis(label);
    axis.setAutoRangeIncludesZero(false);
    axis.setLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
    return axis;
  }

  private static void style(XYLineAndShapeRenderer renderer, int n) {
    for (int i = 0; i < n; i++) {
      renderer.setSeriesPaint(i, PALETTE[i % PALETTE.length]);
      renderer.setSeriesStroke(i, new BasicStroke(1.6f));
    }
  }

  private static String render(String title, XYPlot plot) {
    plot.setBackgroundPaint(Color.WHITE);
    plot.setDomainGridlinePaint(new Color(0xDDDDDD));
    plot.setRangeGridlinePaint(new Color(0xDDDDDD));
    JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 14), plot, true);
    chart.setBackgroundPaint(Color.WHITE);
    SVGGraphics2D g = new SVGGraphics2D(WIDTH, HEIGHT);
    chart.draw(g, new Rectangle(0, 0, WIDTH, HEIGHT));
    // A viewBox, so the page's CSS can shrink the chart to a phone's width instead of cropping it.
    return g.getSVGElement(null, true, new ViewBox(0, 0, WIDTH, HEIGHT), null, null);
  }
}
