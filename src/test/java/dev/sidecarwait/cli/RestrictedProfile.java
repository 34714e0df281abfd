package dev.sidecarwait.cli;

import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The Pod Security Standards' restricted level, as the admission controller checks it, restated from its own checks in
 * kubernetes/kubernetes, staging/src/k8s.io/pod-security-admission/policy/ (each rule names its file): the baseline
 * checks, which restricted includes, then restricted's own. A pod is admitted when this returns no violation. Every
 * container counts: containers, init containers and ephemeral containers (visitContainers in check_*.go), except those
 * a mesh injects ({@link #INJECTED}), which keep what their injector gives them: an example's container of that name
 * is an overlay on the injected one and must set no securityContext of its own.
 */
final class RestrictedProfile {

    /** Containers a mesh's injector adds, with their own securityContext (Istio's sidecar template; Linkerd's). */
    static final Set<String> INJECTED = Set.of("istio-proxy", "istio-init", "istio-validation", "linkerd-proxy", "linkerd-init");

    /** check_capabilities_baseline.go: what baseline lets a container add. */
    private static final Set<String> BASELINE_CAPABILITIES = Set.of("AUDIT_WRITE", "CHOWN", "DAC_OVERRIDE", "FOWNER",
            "FSETID", "KILL", "MKNOD", "NET_BIND_SERVICE", "SETFCAP", "SETGID", "SETPCAP", "SETUID", "SYS_CHROOT");
    /** check_sysctls.go: the safe sysctls (1.32's list). */
    private static final Set<String> SAFE_SYSCTLS = Set.of("kernel.shm_rmid_forced", "net.ipv4.ip_local_port_range",
            "net.ipv4.ip_unprivileged_port_start", "net.ipv4.tcp_syncookies", "net.ipv4.ping_group_range",
            "net.ipv4.ip_local_reserved_ports", "net.ipv4.tcp_keepalive_time", "net.ipv4.tcp_fin_timeout",
            "net.ipv4.tcp_keepalive_intvl", "net.ipv4.tcp_keepalive_probes", "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem");

    private RestrictedProfile() {
    }

    /** The pod template of a Pod, Deployment, Job or CronJob. */
    /** The object's pod template; null for an object that runs no pod (a ServiceAccount, a Role, a RoleBinding). */
    static PodSpec podSpec(KubernetesResource object) {
        if (object instanceof io.fabric8.kubernetes.api.model.ServiceAccount || object instanceof io.fabric8.kubernetes.api.model.rbac.Role
                || object instanceof io.fabric8.kubernetes.api.model.rbac.RoleBinding) {
            return null;
        }
        if (object instanceof Pod pod) {
            return pod.getSpec();
        }
        if (object instanceof Deployment deployment) {
            return deployment.getSpec().getTemplate().getSpec();
        }
        if (object instanceof Job job) {
            return job.getSpec().getTemplate().getSpec();
        }
        if (object instanceof CronJob cronJob) {
            return cronJob.getSpec().getJobTemplate().getSpec().getTemplate().getSpec();
        }
        throw new AssertionError("no pod template in " + object.getClass().getSimpleName());
    }

    /** Why the pod would not be admitted under restricted; empty when it would be. */
    static List<String> violations(PodSpec pod) {
        List<String> found = new ArrayList<>();
        PodSecurityContext podContext = pod.getSecurityContext() == null ? new PodSecurityContext() : pod.getSecurityContext();
        // check_hostNamespaces.go
        if (isTrue(pod.getHostNetwork()) || isTrue(pod.getHostPID()) || isTrue(pod.getHostIPC())) {
            found.add("host namespaces: hostNetwork, hostPID and hostIPC must be unset or false");
        }
        for (Volume volume : pod.getVolumes()) {
            // check_hostPathVolumes.go, check_restrictedVolumes.go (image: kubernetes/kubernetes#130394, 1.33+)
            boolean allowed = volume.getConfigMap() != null || volume.getCsi() != null || volume.getDownwardAPI() != null
                    || volume.getEmptyDir() != null || volume.getEphemeral() != null || volume.getImage() != null
                    || volume.getPersistentVolumeClaim() != null || volume.getProjected() != null || volume.getSecret() != null;
            if (!allowed) {
                found.add("volume " + volume.getName() + ": a restricted volume type");
            }
        }
        // check_sysctls.go
        if (podContext.getSysctls() != null) {
            podContext.getSysctls().stream().filter(sysctl -> !SAFE_SYSCTLS.contains(sysctl.getName()))
                    .forEach(sysctl -> found.add("sysctl " + sysctl.getName() + " is not a safe one"));
        }
        // check_runAsUser.go
        if (podContext.getRunAsUser() != null && podContext.getRunAsUser() == 0) {
            found.add("pod: securityContext.runAsUser must not be 0");
        }
        seLinux(podContext.getSeLinuxOptions(), "pod", found);
        seccompNotUnconfined(podContext.getSeccompProfile(), "pod", found);
        boolean podNonRoot = isTrue(podContext.getRunAsNonRoot());
        boolean podSeccomp = seccompRestricted(podContext.getSeccompProfile());
        for (Named container : containers(pod)) {
            String name = container.name();
            SecurityContext context = container.securityContext();
            if (INJECTED.contains(name)) {
                if (context != null) {
                    found.add("container " + name + ": the mesh injects it with its own securityContext; set none here");
                }
                continue;
            }
            SecurityContext c = context == null ? new SecurityContext() : context;
            // check_privileged.go, check_windowsHostProcess.go, check_procMount.go
            if (isTrue(c.getPrivileged())) {
                found.add("container " + name + ": privileged");
            }
            if (c.getWindowsOptions() != null && isTrue(c.getWindowsOptions().getHostProcess())) {
                found.add("container " + name + ": hostProcess");
            }
            if (c.getProcMount() != null && !c.getProcMount().equals("Default")) {
                found.add("container " + name + ": procMount must be Default");
            }
            // check_hostPorts.go
            for (ContainerPort port : container.ports()) {
                if (port.getHostPort() != null && port.getHostPort() != 0) {
                    found.add("container " + name + ": hostPort " + port.getHostPort());
                }
            }
            // check_appArmorProfile.go
            if (c.getAppArmorProfile() != null && "Unconfined".equals(c.getAppArmorProfile().getType())) {
                found.add("container " + name + ": AppArmor profile Unconfined");
            }
            seLinux(c.getSeLinuxOptions(), "container " + name, found);
            // check_allowPrivilegeEscalation.go
            if (!Boolean.FALSE.equals(c.getAllowPrivilegeEscalation())) {
                found.add("container " + name + ": securityContext.allowPrivilegeEscalation must be false");
            }
            // check_capabilities_baseline.go and check_capabilities_restricted.go
            Capabilities capabilities = c.getCapabilities();
            if (capabilities == null || capabilities.getDrop() == null || !capabilities.getDrop().contains("ALL")) {
                found.add("container " + name + ": securityContext.capabilities.drop must include ALL");
            }
            if (capabilities != null && capabilities.getAdd() != null) {
                capabilities.getAdd().stream().filter(added -> !added.equals("NET_BIND_SERVICE"))
                        .forEach(added -> found.add("container " + name + ": adds capability " + added
                                + (BASELINE_CAPABILITIES.contains(added) ? " (baseline allows it, restricted does not)" : "")));
            }
            // check_runAsNonRoot.go: the pod's true, or the container's own; a container's false is never allowed
            if (Boolean.FALSE.equals(c.getRunAsNonRoot()) || !podNonRoot && !isTrue(c.getRunAsNonRoot())) {
                found.add("container " + name + ": runAsNonRoot must be true (in the pod's securityContext or its own)");
            }
            // check_runAsUser.go
            if (c.getRunAsUser() != null && c.getRunAsUser() == 0) {
                found.add("container " + name + ": securityContext.runAsUser must not be 0");
            }
            // check_seccompProfile_baseline.go and check_seccompProfile_restricted.go
            seccompNotUnconfined(c.getSeccompProfile(), "container " + name, found);
            if (!podSeccomp && !seccompRestricted(c.getSeccompProfile())) {
                found.add("container " + name + ": seccompProfile.type must be RuntimeDefault or Localhost "
                        + "(in the pod's securityContext or its own)");
            }
        }
        return found;
    }

    private record Named(String name, SecurityContext securityContext, List<ContainerPort> ports) {
    }

    /** visitContainers: containers, init containers, ephemeral containers. */
    private static List<Named> containers(PodSpec pod) {
        List<Named> all = new ArrayList<>();
        Function<Container, Named> named = c -> new Named(c.getName(), c.getSecurityContext(), c.getPorts());
        pod.getInitContainers().stream().map(named).forEach(all::add);
        pod.getContainers().stream().map(named).forEach(all::add);
        for (EphemeralContainer c : pod.getEphemeralContainers()) {
            all.add(new Named(c.getName(), c.getSecurityContext(), c.getPorts()));
        }
        return all;
    }

    /** check_seLinuxOptions.go: type one of container_t, container_init_t, container_kvm_t, container_engine_t; no user or role. */
    private static void seLinux(io.fabric8.kubernetes.api.model.SELinuxOptions options, String where, List<String> found) {
        if (options == null) {
            return;
        }
        if (options.getType() != null && !options.getType().isEmpty() && !Set.of("container_t", "container_init_t",
                "container_kvm_t", "container_engine_t").contains(options.getType())) {
            found.add(where + ": SELinux type " + options.getType());
        }
        if (options.getUser() != null && !options.getUser().isEmpty() || options.getRole() != null && !options.getRole().isEmpty()) {
            found.add(where + ": SELinux user or role set");
        }
    }

    private static void seccompNotUnconfined(SeccompProfile profile, String where, List<String> found) {
        if (profile != null && "Unconfined".equals(profile.getType())) {
            found.add(where + ": seccompProfile.type Unconfined");
        }
    }

    private static boolean seccompRestricted(SeccompProfile profile) {
        return profile != null && ("RuntimeDefault".equals(profile.getType()) || "Localhost".equals(profile.getType()));
    }

    private static boolean isTrue(Boolean value) {
        return Boolean.TRUE.equals(value);
    }
}
