// `npm run lint:docs`: every relative link and #heading anchor in the Markdown resolves (remark-validate-links).
// `repository: false`: links are checked as files in this tree, whatever remote a clone has.
import remarkValidateLinks from 'remark-validate-links';

export default {
  plugins: [[remarkValidateLinks, { repository: false }]],
};
