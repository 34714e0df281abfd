package dev.sidecarwait.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A redirect's Location resolved as RFC 3986 resolves a reference: its section 5.4's examples (a fragment is dropped). */
class UrlPartsTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "g:h | g:h",
            "g | http://a/b/c/g",
            "./g | http://a/b/c/g",
            "g/ | http://a/b/c/g/",
            "/g | http://a/g",
            "//g | http://g",
            "?y | http://a/b/c/d;p?y",
            "g?y | http://a/b/c/g?y",
            "#s | http://a/b/c/d;p?q",
            "g#s | http://a/b/c/g#s",
            "g?y#s | http://a/b/c/g?y#s",
            ";x | http://a/b/c/;x",
            "g;x | http://a/b/c/g;x",
            ". | http://a/b/c/",
            "./ | http://a/b/c/",
            ".. | http://a/b/",
            "../ | http://a/b/",
            "../g | http://a/b/g",
            "../.. | http://a/",
            "../../ | http://a/",
            "../../g | http://a/g",
            "../../../g | http://a/g",
            "../../../../g | http://a/g",
            "/./g | http://a/g",
            "/../g | http://a/g",
            "g. | http://a/b/c/g.",
            ".g | http://a/b/c/.g",
            "g.. | http://a/b/c/g..",
            "..g | http://a/b/c/..g",
            "./../g | http://a/b/g",
            "./g/. | http://a/b/c/g/",
            "g/./h | http://a/b/c/g/h",
            "g/../h | http://a/b/c/h",
            "g;x=1/./y | http://a/b/c/g;x=1/y",
            "g;x=1/../y | http://a/b/c/y",
            "g?y/./x | http://a/b/c/g?y/./x",
            "g?y/../x | http://a/b/c/g?y/../x",
            "g#s/./x | http://a/b/c/g#s/./x",
            "g#s/../x | http://a/b/c/g#s/../x"})
    void resolvesAsRfc3986Does(String reference, String resolved) {
        assertEquals(resolved, UrlParts.resolved("http://a/b/c/d;p?q", reference));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', emptyValue = "", value = {"'' | http://a/b/c/d;p?q", "#s | http://a/b/c/d;p?q"})
    void anEmptyReferenceOrAFragmentIsTheBaseItself(String reference, String resolved) {
        assertEquals(resolved, UrlParts.resolved("http://a/b/c/d;p?q", reference));
    }
}
