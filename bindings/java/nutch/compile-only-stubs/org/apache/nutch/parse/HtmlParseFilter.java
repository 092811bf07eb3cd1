// COMPILE-ONLY STAND-IN (bindings/java/nutch/compile-only-stubs/README.md): the signatures the
// langsift adapter uses, as in Apache Nutch 1.x / Apache Hadoop 3.x; not their code, not a test of them.
package org.apache.nutch.parse;

import org.apache.hadoop.conf.Configurable;
import org.apache.nutch.plugin.Pluggable;
import org.apache.nutch.protocol.Content;
import org.w3c.dom.DocumentFragment;

/** Extension point run on each HTML parse (the parse-html and parse-tika plugins call it). */
public interface HtmlParseFilter extends Pluggable, Configurable {
  String X_POINT_ID = HtmlParseFilter.class.getName();

  ParseResult filter(Content content, ParseResult parseResult, HTMLMetaTags metaTags, DocumentFragment doc);
}
