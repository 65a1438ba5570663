// The page's labels in every language of the site (locales/<lang>.json). The server lists
// the languages (the options of the Language menu); nothing here names them.
// Elements carry data-i18n="key" (their text) or data-i18n-attr="attribute:key;...".

import { KEYS } from "./storage.js";

/**
 * The stored choice if it is one of `languages`, else the first of the browser's languages
 * that is, else the first of `languages`.
 */
export function pickLanguage(stored, preferred, languages) {
  if (languages.includes(stored)) return stored;
  for (const tag of preferred ?? []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (languages.includes(base)) return base;
  }
  return languages[0];
}

export class Translator {
  constructor(language, messages) {
    this.language = language;
    this.messages = messages;
    this.numbers = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  }

  /** The message `key` with each {name} in it replaced by `values[name]`. */
  t(key, values = {}) {
    const template = this.messages[key] ?? key;
    return template.replace(/\{(\w+)\}/g, (match, name) =>
      name in values ? String(values[name]) : match,
    );
  }

  number(value) {
    return this.numbers.format(value);
  }

  /** Translate every marked element under `root`. */
  apply(root) {
    for (const element of root.querySelectorAll("[data-i18n]")) {
      element.textContent = this.t(element.dataset.i18n);
    }
    for (const element of root.querySelectorAll("[data-i18n-attr]")) {
      for (const pair of element.dataset.i18nAttr.split(";")) {
        const [attribute, key] = pair.split(":");
        element.setAttribute(attribute, this.t(key));
      }
    }
  }
}

export async function loadTranslator(language) {
  const response = await fetch(`/static/locales/${language}.json`);
  if (!response.ok) throw new Error(`no labels for language ${language}`);
  return new Translator(language, await response.json());
}

/**
 * Run the page's Language menu (#language): start in the language `pickLanguage` picks, then
 * switch to each one chosen and remember it in `storage`. Each switch relabels the document and
 * the frame's rules link, then `relabel(translator)` redraws what the page wrote itself.
 */
export async function followLanguageMenu(storage, relabel) {
  const select = document.getElementById("language");
  const languages = [...select.options].map((option) => option.value);

  async function use(language) {
    const translator = await loadTranslator(language);
    document.documentElement.lang = language;
    translator.apply(document);
    select.value = language;
    document.getElementById("rules-link").href = `/rules/${language}`;
    relabel(translator);
  }

  await use(pickLanguage(storage.get(KEYS.language), navigator.languages, languages));
  select.addEventListener("change", async () => {
    storage.set(KEYS.language, select.value);
    await use(select.value);
  });
}
