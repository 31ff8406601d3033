"""About the method: PromptAnatomy, ComPerturb and ProSA's PSS in a few paragraphs, every term the app uses, and the
papers' references."""
import streamlit as st

from promptanatomy_core import glossary
from ui import components

st.title("About the method")
st.markdown("""
**The question.** A prompt is not one block of text: it has parts with different jobs. When a prompt breaks under
small edits — a typo, a synonym, a dropped word — *which part* broke it, and on which model? The app answers with
two papers' methods.

**1 · PromptAnatomy — dissect the prompt.** The prompt is split into sentences and each sentence is labelled with the
components it belongs to (a sentence may have several). The paper's LLM classifier sees each sentence with two
sentences of context on each side, then a verification pass looks again at the sentences left without a label. The
app's offline default is a rules dissector that needs no API; the `llm` dissector in the sidebar runs the paper's
procedure on any model.
""")
components.legend()
st.markdown("\n".join(f"- **{c}** — {t}" for c, t in glossary.COMPONENTS.items()))
st.markdown("""
**2 · ComPerturb — perturb one component at a time.** Each strategy edits only the chosen component, at a ratio of
its words (10% by default). The **control group (CRT)** spends the same edit budget anywhere in the prompt: a
component whose attack success rate is above CRT's is more fragile than chance. Whole-prompt baselines
(PromptRobust- and MTTM-style) edit the whole prompt without the dissection, for the paper's Table 1 comparison.
""")
st.markdown("\n".join(f"- **{s}** — {t}" for s, t in glossary.STRATEGIES.items()))
st.markdown("""
**The perplexity filter.** Many candidates are made per cell (component × strategy); a local language model scores
each one's perplexity, and the ratio PPL(perturbed) / PPL(clean) ranks how much a variant disturbs the text. The
paper keeps the top 20% per cell — the strongest perturbations — and the app does the same by default (on a GPU when
there is one, on the CPU otherwise).

**3 · Run and judge.** Every kept variant and the clean prompt go to the chosen models. An answer is judged against
the expected answer (or, without one, against the clean prompt's answer); an answer judged wrong is an *attack
success*. A provider error is never an attack success: it leaves the cell's count.

**4 · ProSA — how sensitive is the model?** ProSA's PromptSensiScore (PSS) looks at each instance across its prompt
variants: the mean, over pairs of its prompts, of how often the judged outcome differs. ProSA also relates
sensitivity to the model's decoding confidence: confident models tend to be less sensitive.
""")
st.subheader("Every metric")
st.markdown("\n".join(f"- **{m}** — {t}" for m, t in glossary.METRICS.items()))
st.subheader("References")
st.markdown("""
- Yujia Zheng, Tianhao Li, et al. *Are All Prompt Components Value-Neutral? Understanding the Heterogeneous
  Adversarial Robustness of Dissected Prompt in Large Language Models.* arXiv preprint, 2025. — PromptAnatomy,
  ComPerturb, the PACP datasets (PubMedQA-PA, EMEA-PA, Leetcode-PA, CodeGeneration-PA) and the Prompt Complexity
  Metric (PCM).
- Jingming Zhuo, Songyang Zhang, Xinyu Fang, Haodong Duan, Dahua Lin, Kai Chen. *ProSA: Assessing and Understanding
  the Prompt Sensitivity of LLMs.* Findings of the Association for Computational Linguistics: EMNLP 2024,
  pp. 1950–1976. [aclanthology.org/2024.findings-emnlp.108](https://aclanthology.org/2024.findings-emnlp.108)
  (arXiv:2410.12405). — PromptSensiScore (PSS) and decoding confidence.
- The perturbation baselines follow PromptRobust (Zhu et al., 2023, arXiv:2306.04528) and MTTM-style metamorphic
  transformations.
""")
st.caption("Where the app departs from the papers (the rules dissector, the approximations in PCM, the Wilson and "
           "bootstrap intervals) the README says so.")
