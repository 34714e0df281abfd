package dev.sidecarwait.kube;

import dev.sidecarwait.wire.PeerText;
import java.util.Base64;

/**
 * An API server's refusal worded as what to do: a token not accepted (401), a permission missing (403: who, which
 * verb on what where, and the smallest Role and RoleBinding that grant it), a resource not served (404), the server
 * busy (429). The server's own message is quoted escaped; the token is never shown.
 */
final class ApiRefusal {

    /** What the Role grants: the verbs a list and a watch need, and a get for kubectl. */
    static final String VERBS = "get,list,watch";

    private ApiRefusal() {
    }

    static String of(int status, byte[] body, String verb, Resource resource, String namespace, String token) {
        String where = resource.namespaced() ? " in namespace " + namespace : "";
        return switch (status) {
            case 401 -> "the API server did not accept the service account's token (401 Unauthorized): it has expired, "
                    + "or was issued for another cluster or audience";
            case 403 -> forbidden(verb, resource, namespace, account(token)) + serverSaid(body);
            case 404 -> "the API server does not serve " + resource.rbacName() + where + " (404)" + serverSaid(body);
            case 429 -> "the API server is busy (429 Too Many Requests)";
            default -> "the API server answered " + status + " to a " + verb + " of " + resource.rbacName() + where
                    + serverSaid(body);
        };
    }

    /**
     * The grant as two commands that apply as printed: the Role and its binding are named after the account and the
     * resource, so a second account, or another resource for the same one, gets a grant of its own rather than
     * AlreadyExists; and the binding is created even where the Role already was (";", not "&&").
     */
    private static String forbidden(String verb, Resource resource, String namespace, String account) {
        String subject = account == null ? "this pod's service account" : "service account " + account;
        String bound = account == null ? "NAMESPACE:SERVICE_ACCOUNT" : account;
        String in = resource.namespaced() ? " -n " + namespace : "";
        String scope = resource.namespaced() ? "role" : "clusterrole";
        String name = grantName(account, resource);
        return "forbidden (403): " + subject + " may not " + verb + " " + resource.rbacName()
                + (resource.namespaced() ? " in namespace " + namespace : " (cluster-wide)") + "; grant it: kubectl create "
                + scope + " " + name + " --verb=" + VERBS + " --resource=" + resource.rbacName() + in + "; kubectl create "
                + scope + "binding " + name + " --" + scope + "=" + name + " --serviceaccount=" + bound + in
                + " (or the YAML in docs/kubernetes.md)";
    }

    /**
     * sidecar-wait-ACCOUNT-RESOURCE: sidecar-wait-migrator-jobs.batch, for the account in its own namespace (a
     * ClusterRole's name takes the namespace too). A lower-case DNS subdomain, which RBAC's names may be.
     */
    static String grantName(String account, Resource resource) {
        String who = account == null ? "SERVICE_ACCOUNT"
                : resource.namespaced() ? account.substring(account.indexOf(':') + 1) : account.replace(':', '-');
        return "sidecar-wait-" + who + "-" + resource.rbacName();
    }

    /** A refusal that only a change in the cluster ends: a token, a grant, a resource type not served. */
    static boolean lasting(int status) {
        return status == 401 || status == 403 || status == 404;
    }

    /** namespace:name from the token's subject (system:serviceaccount:NS:NAME); null when it does not say. */
    static String account(String token) {
        String[] parts = token.split("\\.");
        if (parts.length != 3) {
            return null;
        }
        try {
            byte[] payload = Base64.getUrlDecoder().decode(parts[1]);
            String subject = JsonFields.of(JsonReader.parse(payload, payload.length)).at("sub").text("");
            return subject.matches("system:serviceaccount:[a-z0-9-]{1,63}:[a-z0-9.-]{1,253}")
                    ? subject.substring("system:serviceaccount:".length()) : null;
        } catch (IllegalArgumentException | JsonReader.Malformed notAJwt) {
            return null;
        }
    }

    /** The Status's message, escaped, for what it adds. */
    private static String serverSaid(byte[] body) {
        try {
            String message = JsonFields.of(JsonReader.parse(body, body.length)).at("message").text();
            return message == null ? "" : " (the API server: " + PeerText.shown(message, 200) + ")";
        } catch (JsonReader.Malformed notStatus) {
            return "";
        }
    }
}
