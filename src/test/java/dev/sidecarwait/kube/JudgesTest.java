package dev.sidecarwait.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sidecarwait.probe.ObjectKind;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What each kind's state means, case by case as kubectl and the controllers mean it. */
class JudgesTest {

    private static JsonFields json(String text) throws JsonReader.Malformed {
        byte[] bytes = text.replace('\'', '"').getBytes(StandardCharsets.UTF_8);
        return JsonFields.of(JsonReader.parse(bytes, bytes.length));
    }

    private static Verdict job(String status) throws Exception {
        return JobJudge.judge(json("{'status':" + status + "}"));
    }

    @Test
    void aJobIsDoneAtCompleteOrSuccessCriteriaMetAndFailedForGoodAtFailedOrFailureTarget() throws Exception {
        assertEquals(Verdict.ready("complete (1 succeeded)"), job("{'succeeded':1,'conditions':[{'type':'Complete','status':'True'}]}"));
        assertEquals(Verdict.State.READY, job("{'conditions':[{'type':'SuccessCriteriaMet','status':'True'}]}").state());
        assertEquals(Verdict.failed("the Job failed (DeadlineExceeded: Job was active longer than specified deadline); active 0, "
                + "succeeded 0, failed 1"), job("{'failed':1,'conditions':[{'type':'FailureTarget','status':'True','reason':"
                + "'DeadlineExceeded','message':'Job was active longer than specified deadline'},{'type':'Failed','status':'True',"
                + "'reason':'DeadlineExceeded','message':'Job was active longer than specified deadline'}]}"));
        // caught at FailureTarget, before the controller has counted the failed pod: worded from the condition alone
        assertEquals(Verdict.failed("the Job failed (BackoffLimitExceeded: Job has reached the specified backoff limit); its pods "
                + "are being ended (FailureTarget)"), job("{'active':1,'conditions':[{'type':'FailureTarget','status':'True',"
                + "'reason':'BackoffLimitExceeded','message':'Job has reached the specified backoff limit'}]}"));
        assertEquals(Verdict.waiting("not complete yet: active 2, succeeded 1, failed 0"), job("{'active':2,'succeeded':1}"));
        assertEquals(Verdict.State.WAITING, job("{'conditions':[{'type':'Complete','status':'False'}]}").state());
        assertEquals(Verdict.waiting("not complete yet: active 0, succeeded 0, failed 0; last condition Suspended (JobSuspended: "
                + "Job suspended \\x1b[31m)"), job("{'conditions':[{'type':'Suspended','status':'True','reason':'JobSuspended',"
                + "'message':'Job suspended \\u001b[31m'}]}"));
    }

    @Test
    void aRolloutIsJudgedAsKubectlRolloutStatusJudgesIt() throws Exception {
        String spec = "'spec':{'replicas':3}";
        assertEquals(Verdict.waiting("waiting for the rollout's spec update to be observed"), RolloutJudge.judge(ObjectKind.DEPLOYMENT,
                json("{'metadata':{'generation':3}," + spec + ",'status':{'observedGeneration':2}}")));
        assertEquals(Verdict.waiting("1 of 3 new replicas have been updated"), RolloutJudge.judge(ObjectKind.DEPLOYMENT,
                json("{'metadata':{'generation':3}," + spec + ",'status':{'observedGeneration':3,'replicas':4,'updatedReplicas':1}}")));
        assertEquals(Verdict.waiting("1 old replicas are pending termination"), RolloutJudge.judge(ObjectKind.DEPLOYMENT,
                json("{" + spec + ",'status':{'replicas':4,'updatedReplicas':3,'availableReplicas':3}}")));
        assertEquals(Verdict.State.FAILED, RolloutJudge.judge(ObjectKind.DEPLOYMENT, json("{" + spec + ",'status':{'conditions':"
                + "[{'type':'Progressing','status':'False','reason':'ProgressDeadlineExceeded'}]}}")).state());
        assertEquals(Verdict.waiting("waiting for the rollout's spec update to be observed"), RolloutJudge.judge(ObjectKind.STATEFULSET,
                json("{" + spec + ",'status':{'readyReplicas':3}}")));
        assertEquals(Verdict.ready("partitioned roll out complete (2 new pods)"), RolloutJudge.judge(ObjectKind.STATEFULSET,
                json("{'spec':{'replicas':3,'updateStrategy':{'type':'RollingUpdate','rollingUpdate':{'partition':1}}},"
                        + "'status':{'observedGeneration':1,'readyReplicas':3,'updatedReplicas':2}}")));
        assertEquals(Verdict.State.WAITING, RolloutJudge.judge(ObjectKind.STATEFULSET, json("{" + spec + ",'status':{"
                + "'observedGeneration':1,'readyReplicas':3,'currentRevision':'a','updateRevision':'b'}}")).state());
        assertEquals(Verdict.State.FAILED, RolloutJudge.judge(ObjectKind.DAEMONSET, json("{'spec':{'updateStrategy':{'type':"
                + "'OnDelete'}}}")).state());
        assertEquals(Verdict.waiting("2 of 3 updated pods are available"), RolloutJudge.judge(ObjectKind.DAEMONSET, json("{'status':"
                + "{'desiredNumberScheduled':3,'updatedNumberScheduled':3,'numberAvailable':2}}")));
    }

    @Test
    void endpointsWithoutAReadyConditionCountAsReady() throws Exception {
        List<JsonFields> slices = List.of(json("{'endpoints':[{'addresses':['10.0.0.1']},{'addresses':['10.0.0.2'],"
                + "'conditions':{'ready':false}}]}"), json("{'endpoints':[{'addresses':['10.0.0.3'],'conditions':{'ready':true}}]}"));
        assertEquals(Verdict.ready("2 ready endpoints of 3"), EndpointsJudge.judge(slices, 2, "db"));
        assertEquals(Verdict.waiting("2 ready endpoints of 3 (3 wanted)"), EndpointsJudge.judge(slices, 3, "db"));
    }

    /** One pod in an IPv4 and an IPv6 slice, one address in two slices: each is one endpoint, as kube-proxy counts it. */
    @Test
    void anEndpointCountsOnceHoweverManySlicesHoldIt() throws Exception {
        String pod = "'targetRef':{'kind':'Pod','namespace':'shop','name':'db-0'}";
        List<JsonFields> dualStack = List.of(json("{'addressType':'IPv4','endpoints':[{'addresses':['10.0.0.7']," + pod + "}]}"),
                json("{'addressType':'IPv6','endpoints':[{'addresses':['fd00::7']," + pod + "}]}"));
        assertEquals(Verdict.waiting("1 ready endpoint of 1 (2 wanted)"), EndpointsJudge.judge(dualStack, 2, "db"));
        assertEquals(Verdict.ready("1 ready endpoint of 1"), EndpointsJudge.judge(dualStack, 1, "db"));
        List<JsonFields> moving = List.of(json("{'endpoints':[{'addresses':['10.0.0.8'],'conditions':{'ready':false}}]}"),
                json("{'endpoints':[{'addresses':['10.0.0.8'],'conditions':{'ready':true}},{'addresses':['10.0.0.9']}]}"));
        assertEquals(Verdict.ready("2 ready endpoints of 2"), EndpointsJudge.judge(moving, 2, "db"));
        assertEquals(Verdict.waiting("2 ready endpoints of 2 (3 wanted)"), EndpointsJudge.judge(moving, 3, "db"));
    }

    @Test
    void aConditionIsComparedWithoutCaseAndNotForAnOlderGeneration() throws Exception {
        JsonFields ready = json("{'metadata':{'generation':2},'status':{'conditions':[{'type':'ready','status':'true',"
                + "'observedGeneration':2}]}}");
        assertEquals(Verdict.State.READY, ConditionJudge.judge(List.of(ready), "Ready", "True").state());
        JsonFields stale = json("{'metadata':{'generation':3},'status':{'observedGeneration':2,'conditions':[{'type':'Ready',"
                + "'status':'True'}]}}");
        assertEquals(Verdict.waiting("condition Ready is True for generation 2 of 3, waiting for True"),
                ConditionJudge.judge(List.of(stale), "Ready", "True"));
        assertEquals(Verdict.waiting("not found"), ConditionJudge.judge(List.of(), "Ready", "True"));
    }
}
