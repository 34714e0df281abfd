package dev.sidecarwait.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** How a DNS name lies within a name constraint's subtree, a wildcard included (RFC 5280 4.2.1.10, RFC 6125). */
class SubtreesTest {

    @Test
    void aDomainHoldsItselfAndWhatEndsInIt() {
        assertEquals(true, Subtrees.dnsWithin("svc.cluster.local", "svc.cluster.local", true));
        assertEquals(true, Subtrees.dnsWithin("db.ns.svc.cluster.local", "svc.cluster.local", true));
        assertEquals(false, Subtrees.dnsWithin("evilsvc.cluster.local", "svc.cluster.local", true));
        assertEquals(true, Subtrees.dnsWithin("anything.example", "", true));
    }

    @Test
    void aLeadingPeriodHoldsTheSubdomainsAlone() {
        assertEquals(true, Subtrees.dnsWithin("db.example.com", ".example.com", true));
        assertEquals(false, Subtrees.dnsWithin("example.com", ".example.com", true));
    }

    @Test
    void aWildcardIsPermittedOnlyWhenAllItMatchesIsAndExcludedWhenAnyOfItIs() {
        assertEquals(true, Subtrees.dnsWithin("*.foo.com", "foo.com", true));
        assertEquals(false, Subtrees.dnsWithin("*.foo.com", "bar.foo.com", true));
        assertEquals(true, Subtrees.dnsWithin("*.example.com", "bar.example.com", false));
        assertEquals(false, Subtrees.dnsWithin("*.example.com", "a.bar.example.com", false));
        assertEquals(true, Subtrees.dnsWithin("*.example.com", ".example.com", false));
    }
}
